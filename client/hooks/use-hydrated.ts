/**
 * False on the server and during hydration, true once the browser has taken over (and
 * at once for anything mounted later, e.g. after a client navigation). Pages use it to
 * swap a control that works without JavaScript (a link, a <details> form) for its
 * scripted version without a hydration mismatch.
 */
import { useDeferredValue, useSyncExternalStore } from "react";

const subscribe = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * As `useHydrated`, but once hydrated the change is rendered at a transition's pace, in
 * slices between which the browser gets on with other work, instead of in one task right
 * after hydration: for a swap that builds a good deal of new DOM (the job filter's dialog).
 * Mounted later, it is true at once.
 */
export function useHydratedSoon(): boolean {
  const hydrated = useHydrated();
  return useDeferredValue(hydrated, hydrated ? undefined : false);
}
