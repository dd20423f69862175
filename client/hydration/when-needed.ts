/** When a part is needed: used, or near the viewport. Caught in the capture phase, before React's own listener, so a tap hydrates its part in time for itself. */

export type NeededWhen = "used" | "near";

const NEAR_MARGIN = "200px";
const INTERACTIONS = ["pointerover", "pointerdown", "touchstart", "focusin"] as const;

interface Watch {
  element: Element | null;
  needed: boolean;
  resolve: () => void;
  promise: Promise<void>;
}

const watches = new Map<string, Watch>();
let observer: IntersectionObserver | undefined;
let listening = false;

function markNeeded(watch: Watch): void {
  if (watch.needed) return;
  watch.needed = true;
  if (watch.element) observer?.unobserve(watch.element);
  watch.resolve();
  if (listening && [...watches.values()].every((w) => w.needed)) {
    listening = false;
    for (const type of INTERACTIONS) document.removeEventListener(type, onInteraction, { capture: true });
  }
}

function onInteraction(event: Event): void {
  for (const watch of watches.values()) if (watch.element?.contains(event.target as Node | null)) markNeeded(watch);
}

function onIntersection(entries: IntersectionObserverEntry[]): void {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    for (const watch of watches.values()) if (watch.element === entry.target) markNeeded(watch);
  }
}

function watchOf(elementId: string, when: NeededWhen): Watch {
  const existing = watches.get(elementId);
  if (existing) return existing;
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  const watch: Watch = { element: document.getElementById(elementId), needed: false, resolve, promise };
  watches.set(elementId, watch);
  if (!watch.element) {
    markNeeded(watch);
    return watch;
  }
  if (when === "near") {
    observer ??= new IntersectionObserver(onIntersection, { rootMargin: NEAR_MARGIN });
    observer.observe(watch.element);
  }
  if (!listening) {
    listening = true;
    for (const type of INTERACTIONS) document.addEventListener(type, onInteraction, { capture: true, passive: true });
  }
  return watch;
}

/** Synchronous, so a tap's own hydration can see it. */
export function wasNeeded(elementId: string): boolean {
  return watches.get(elementId)?.needed ?? false;
}

const ready = new Map<string, Promise<unknown>>();

export function givenPromise(elementId: string): Promise<unknown> | undefined {
  return ready.get(elementId);
}

/** The same promise for an element every time (React's `use` follows one); if `load` fails it never resolves. */
export function neededPromise(elementId: string, when: NeededWhen, load: () => Promise<unknown>): Promise<unknown> {
  let promise = ready.get(elementId);
  if (!promise) {
    promise = watchOf(elementId, when)
      .promise.then(load)
      .catch((error: unknown) => {
        console.error(`the code of #${elementId} did not load, it stays as the server sent it:`, error);
        return new Promise<never>(() => {});
      });
    ready.set(elementId, promise);
  }
  return promise;
}
