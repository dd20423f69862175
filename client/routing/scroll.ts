/** Scrolling the shell does: to a home anchor below the fixed header, and to the top (docs/behaviour.md#the-shell). */
import { isLoadingActive } from "./navigation-progress.ts";

/** Also --header-h and the anchors' scroll-margin-top in base.css. */
const HEADER_OFFSET = 75;

export function prefersReducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

const behaviour = (): ScrollBehavior => (prefersReducedMotion() ? "instant" : "smooth");

export function scrollToTop(): void {
  window.scrollTo({ top: 0, behavior: behaviour() });
}

function scrollToElement(element: Element): void {
  const top = element.getBoundingClientRect().top + window.scrollY - HEADER_OFFSET;
  window.scrollTo({ top: Math.max(0, top), behavior: behaviour() });
}

/** After a client navigation the home page arrives a moment later: waits until nothing is loading. */
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

let pendingAnchor: string | null = null;

export function setPendingAnchor(id: string): void {
  pendingAnchor = id;
}

export function takePendingAnchor(): string | null {
  const id = pendingAnchor;
  pendingAnchor = null;
  return id;
}
