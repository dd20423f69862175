import { createContext, useContext } from "react";
import type { PageState } from "../../shared/page-state.ts";

export const PageStateContext = createContext<PageState | null>(null);

/** The state the page was rendered with (server) or hydrated from (browser). */
export function usePageState(): PageState {
  const state = useContext(PageStateContext);
  if (!state) throw new Error("usePageState outside the app");
  return state;
}
