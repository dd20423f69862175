/**
 * When a part of the server HTML is needed in the browser: the visitor points at, touches
 * or focuses something inside it, or (for a part needed when near) its element comes
 * within NEAR_MARGIN of the viewport. The interactions are caught on the document in the
 * capture phase, before React's own listener on the root sees them: a part needed by a
 * tap is then hydrated by React at once, in time for the tap itself.
 */

/** What makes a part needed: only the visitor's use of it, or that too and its coming near the viewport. */
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
    // Nothing of it on the page to wait for.
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

/** Whether the element has been needed already (synchronously, so a tap's own hydration can see it). */
export function wasNeeded(elementId: string): boolean {
  return watches.get(elementId)?.needed ?? false;
}

const ready = new Map<string, Promise<unknown>>();

/** The promise `neededPromise` gave for the element, if it gave one. */
export function givenPromise(elementId: string): Promise<unknown> | undefined {
  return ready.get(elementId);
}

/**
 * Resolves once the element is needed (`when`) and `load` has resolved; the same promise for an
 * element every time (React's `use` follows one promise). If `load` fails, it never
 * resolves: the part keeps its server HTML, which works on its own.
 */
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
