/** Whether a component reads its data through SWR yet (docs/decisions/0007-data-after-hydration.md). */
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
