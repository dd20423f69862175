import { useEffect, useRef } from "react";

/**
 * Back to the top when the list a page shows changes on the client (another page, size
 * or filter: the path stays, so the shell's scroll on navigation does not apply), as a
 * full page load would; not on the first render, nor on back/forward.
 */
export function useScrollTopOnChange(listKey: string): void {
  const shown = useRef(listKey);
  const popped = useRef(false);
  useEffect(() => {
    const onPop = () => {
      popped.current = true;
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  useEffect(() => {
    if (shown.current === listKey) return;
    shown.current = listKey;
    const wasPop = popped.current;
    popped.current = false;
    if (!wasPop) window.scrollTo({ top: 0, behavior: "instant" });
  }, [listKey]);
}
