/** The carousel over a native scroll-snap track: the browser scrolls, this reads where it rests (docs/decisions/0005-scroll-snap-carousel.md). */
import { type FocusEvent, type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from "react";
import { prefersReducedMotion } from "../routing/scroll.ts";

/** Right to left, the track starts at the right and scrolls to negative offsets: the first slide is at 0 either way. */
const inlineSign = (viewport: HTMLElement): 1 | -1 => (getComputedStyle(viewport).direction === "rtl" ? -1 : 1);

function slideAt(viewport: HTMLElement, count: number): number {
  const width = viewport.clientWidth;
  const offset = viewport.scrollLeft * inlineSign(viewport);
  return width > 0 ? Math.min(count - 1, Math.max(0, Math.round(offset / width))) : 0;
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

  // Scroll events come at most once a frame; setting an unchanged index does not render.
  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    const update = () => setCurrent(slideAt(viewport, count));
    update();
    viewport.addEventListener("scroll", update, { passive: true });
    return () => viewport.removeEventListener("scroll", update);
  }, [count]);

  const go = (index: number) => {
    const viewport = viewportRef.current;
    if (!viewport || count < 2) return;
    const left = ((index + count) % count) * viewport.clientWidth * inlineSign(viewport);
    viewport.scrollTo({ left, behavior: prefersReducedMotion() ? "instant" : "smooth" });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `go` reads only the ref and `count`; `step` restarts the timer
  useEffect(() => {
    if (!playing) return;
    const timer = setTimeout(() => {
      go(current + 1);
      setStep((n) => n + 1);
    }, delay);
    return () => clearTimeout(timer);
  }, [playing, current, delay, step]);

  const rootProps = {
    // A finger's tap must not leave it paused.
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
