/**
 * Scrolling the shell does: to a home anchor below the fixed header (docs/behaviour.md#the-shell,
 * offset 75 px), and to the top. Smooth unless the visitor prefers reduced motion.
 */
import { isLoadingActive } from "./navigation-progress.ts";

/** The fixed header's height (also --header-h and the anchors' scroll-margin-top in base.css). */
export const HEADER_OFFSET = 75;

/** Only meaningful in the browser after mount; the server assumes motion is fine. */
export function prefersReducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

const behaviour = (): ScrollBehavior => (prefersReducedMotion() ? "instant" : "smooth");

export function scrollToTop(): void {
  window.scrollTo({ top: 0, behavior: behaviour() });
}

/** Scrolls so the element's top sits just below the fixed header. */
export function scrollToElement(element: Element): void {
  const top = element.getBoundingClientRect().top + window.scrollY - HEADER_OFFSET;
  window.scrollTo({ top: Math.max(0, top), behavior: behaviour() });
}

/**
 * Scrolls to the element with this id once the page has it and nothing is loading any
 * more (after a client navigation the home page arrives a moment later); gives up after
 * 10 s or when `signal` aborts.
 */
export function scrollToAnchorWhenReady(id: string, signal?: AbortSignal): void {
  const started = performance.now();
  const step = () => {
    if (signal?.aborted) return;
    const element = document.getElementById(id);
    if (element && !isLoadingActive()) scrollToElement(element);
    else if (performance.now() - started < 10_000) requestAnimationFrame(step);
  };
  step();
}

/** An anchor a link asked for on another page, scrolled to once that page is shown. */
let pendingAnchor: string | null = null;

export function setPendingAnchor(id: string): void {
  pendingAnchor = id;
}

export function takePendingAnchor(): string | null {
  const id = pendingAnchor;
  pendingAnchor = null;
  return id;
}
