/**
 * Whether a component reads its data through SWR yet (docs/decisions/0007-data-after-hydration.md).
 * While the page hydrates, components read the server's answers from the page state
 * directly; once mounted, each switches to SWR in a transition, a render React does in
 * small slices. Through SWR from the start, every component that mounts a key another
 * part has already mounted is re-rendered synchronously after hydrating (SWR's store
 * reports a different snapshot for the key than the server's), one long task for the
 * home page's sections. Anything mounted once the page has hydrated (a client
 * navigation, a part hydrated later) reads through SWR at once.
 */
import { startTransition, useEffect, useState } from "react";
import { pageHydrated } from "../hydration/hydrate-apart.tsx";

let pageSettled = false;
void pageHydrated.then(() => {
  pageSettled = true;
});

export function useLiveData(): boolean {
  const [live, setLive] = useState(pageSettled);
  useEffect(() => {
    if (!live) startTransition(() => setLive(true));
  }, [live]);
  return live;
}
