/**
 * Hydration in small tasks. The server renders the whole page; in the browser React
 * hydrates the root first, and each part wrapped in `HydrateApart` afterwards, on its
 * own: the wrapper is a Suspense boundary around HTML that never suspends, which React
 * leaves as the server sent it at first and then hydrates as low-priority work, in
 * slices of about 5 ms with the main thread free between them. A part the visitor
 * clicks or types into before its turn is hydrated first, at once, and gets the event.
 * The server HTML is the same, complete page either way.
 *
 * `pageHydrated` resolves once the root and every part it holds (parts inside parts
 * too) have hydrated; parts hydrated only when needed (later-part.tsx) are not waited for.
 */
import { type ReactNode, Suspense, useEffect, useId, useState } from "react";

/** Parts rendered during the first hydration whose content has not hydrated yet. */
const pending = new Set<string>();
let rootHydrated = false;
let allHydrated = false;
let announce = () => {};

/** Resolves once the root and all its parts have hydrated. */
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

/** Placed in the app outside every part: its effect runs once the root itself has hydrated. */
export function RootHydrated() {
  useEffect(() => {
    rootHydrated = true;
    markWhenAllHydrated();
  }, []);
  return null;
}
