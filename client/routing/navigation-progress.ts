/** Counts the page code and data the browser waits for, for the shell's progress bar. */
import { useSyncExternalStore } from "react";

let active = 0;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

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

export function useLoadingActive(): boolean {
  return useSyncExternalStore(subscribe, isLoadingActive, () => false);
}
