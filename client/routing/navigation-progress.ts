/**
 * Counts the page code and data the browser is waiting for, so the shell can show a
 * progress bar while the next page arrives. The server never loads anything here.
 */
import { useSyncExternalStore } from "react";

let active = 0;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

/** Counts `promise` as loading until it settles; returns it unchanged. */
export function trackLoading<T>(promise: Promise<T>): Promise<T> {
  active += 1;
  emit();
  const done = () => {
    active -= 1;
    emit();
  };
  promise.then(done, done);
  return promise;
}

export const isLoadingActive = (): boolean => active > 0;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while anything tracked is loading; false on the server and during hydration. */
export function useLoadingActive(): boolean {
  return useSyncExternalStore(subscribe, isLoadingActive, () => false);
}
