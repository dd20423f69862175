/**
 * The carousel's behaviour over a native scroll-snap track: the browser does the
 * scrolling (swipe, trackpad, focus moving into a slide), and this hook only reads which
 * slide the scrolling viewport rests on and asks it to scroll.
 *
 * Autoplay moves to the next slide (the last loops to the first) once a slide has shown
 * for `delay` ms. It waits while the pointer is over the carousel, while keyboard focus is
 * inside it, after the visitor presses pause, and never starts for visitors who ask for
 * reduced motion (the WAI-ARIA carousel pattern). Left and Right arrows move when focus is
 * inside. The first render is the server's (slide 1, not ready, not paused), so hydration
 * matches; the browser-only state follows in an effect.
 */
import { type FocusEvent, type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from "react";
import { prefersReducedMotion } from "../routing/scroll.ts";

/** The slide the viewport rests on (or is nearest to, mid-scroll): every slide is one viewport wide. */
function slideAt(viewport: HTMLElement, count: number): number {
  const width = viewport.clientWidth;
  return width > 0 ? Math.min(count - 1, Math.max(0, Math.round(viewport.scrollLeft / width))) : 0;
}

export function useCarousel(count: number, delay: number) {
  const viewportRef = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const [current, setCurrent] = useState(0);
  const [paused, setPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  /** Bumped by each autoplay step, so the timer starts again even if the viewport could not move. */
  const [step, setStep] = useState(0);
  const playing = ready && count > 1 && !paused && !hovered && !focused;

  useEffect(() => {
    if (prefersReducedMotion()) setPaused(true);
    setReady(true);
  }, []);

  // The browser sends scroll events at most once a frame, so reading the position here costs one
  // read per frame; setting an unchanged index does not render.
  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    const update = () => setCurrent(slideAt(viewport, count));
    update();
    viewport.addEventListener("scroll", update, { passive: true });
    return () => viewport.removeEventListener("scroll", update);
  }, [count]);

  /** Scrolls to a slide (wrapping at both ends); instantly for visitors who ask for reduced motion. */
  const go = (index: number) => {
    const viewport = viewportRef.current;
    if (!viewport || count < 2) return;
    const left = ((index + count) % count) * viewport.clientWidth;
    viewport.scrollTo({ left, behavior: prefersReducedMotion() ? "instant" : "smooth" });
  };

  // A slide that became current, by autoplay or by hand, gets the full delay.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `go` reads only the ref and `count`; `step` restarts the timer
  useEffect(() => {
    if (!playing) return;
    const timer = setTimeout(() => {
      go(current + 1);
      setStep((n) => n + 1);
    }, delay);
    return () => clearTimeout(timer);
  }, [playing, current, delay, step]);

  /** Props for the carousel's outer element. */
  const rootProps = {
    // A mouse over the carousel pauses it; a finger's tap must not leave it paused.
    onPointerEnter: (event: PointerEvent<HTMLElement>) => event.pointerType === "mouse" && setHovered(true),
    onPointerLeave: () => setHovered(false),
    // Keyboard focus pauses; a mouse click on a button (not :focus-visible) does not.
    onFocus: (event: FocusEvent<HTMLElement>) => event.target.matches(":focus-visible") && setFocused(true),
    onBlur: (event: FocusEvent<HTMLElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
    },
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      const move = event.key === "ArrowLeft" ? -1 : event.key === "ArrowRight" ? 1 : 0;
      if (!move || count < 2 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      go(current + move);
    },
  };

  return { viewportRef, ready, current, paused, setPaused, playing, go, rootProps };
}
