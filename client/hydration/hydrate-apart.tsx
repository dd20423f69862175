/**
 * Hydration in small tasks: each part in `HydrateApart` is a Suspense boundary React hydrates
 * after the root, as low-priority work (docs/behaviour.md#start-up-in-the-browser).
 */
import { type ReactNode, Suspense, useEffect, useId, useState } from "react";

const pending = new Set<string>();
let rootHydrated = false;
let allHydrated = false;
let announce = () => {};

/** Resolves once the root and every part it holds have hydrated (not the later parts). */
export const pageHydrated = new Promise<void>((resolve) => {
  announce = resolve;
});

function markWhenAllHydrated(): void {
  if (allHydrated || !rootHydrated || pending.size > 0) return;
  allHydrated = true;
  announce();
}

function PartHydrated({ id }: { id: string }) {
  useEffect(() => {
    pending.delete(id);
    markWhenAllHydrated();
  }, [id]);
  return null;
}

export function HydrateApart({ children }: { children: ReactNode }) {
  const id = useId();
  // Counted as it mounts (outside its boundary, while its parent hydrates), so before the parent is done.
  useState(() => typeof document !== "undefined" && !allHydrated && pending.add(id));
  return (
    <Suspense>
      {children}
      <PartHydrated id={id} />
    </Suspense>
  );
}

/** Outside every part: its effect runs once the root itself has hydrated. */
export function RootHydrated() {
  useEffect(() => {
    rootHydrated = true;
    markWhenAllHydrated();
  }, []);
  return null;
}
