/** False on the server and while hydrating: swaps a control that works without JavaScript for its scripted one without a mismatch. */
import { useDeferredValue, useSyncExternalStore } from "react";

const subscribe = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/** The change rendered at a transition's pace: for a swap that builds much new DOM (the job filter's dialog). */
export function useHydratedSoon(): boolean {
  const hydrated = useHydrated();
  return useDeferredValue(hydrated, hydrated ? undefined : false);
}
