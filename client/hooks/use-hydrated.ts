/**
 * False on the server and during hydration, true once the browser has taken over (and
 * at once for anything mounted later, e.g. after a client navigation). Pages use it to
 * swap a control that works without JavaScript (a link, a <details> form) for its
 * scripted version without a hydration mismatch.
 */
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
