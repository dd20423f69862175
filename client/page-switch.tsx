/** Maps the location to its page; a page not loaded yet shows the loading state, its data requested beside its code. */
import { useEffect, useState } from "react";
import { preload } from "swr";
import { useLocation, useSearch } from "wouter";
import { matchPage, type RouteMatch } from "../shared/routes.ts";
import { fetchPayload } from "./data/fetch-payload.ts";
import { useKeyInLang } from "./data/use-api.ts";
import type { PageProps } from "./pages/page-props.ts";
import { loadedPage, loadPage } from "./pages/registry.ts";
import { trackLoading } from "./routing/navigation-progress.ts";
import { LoadingState, NotFoundState } from "./shell/page-states.tsx";

export function useRouteMatch(): { match: RouteMatch | null; query: URLSearchParams } {
  const [location] = useLocation();
  const search = useSearch();
  const query = new URLSearchParams(search);
  return { match: matchPage(location, query), query };
}

export const fetchPageData = (key: string) => trackLoading(fetchPayload(key));

export function PageSwitch() {
  const { match, query } = useRouteMatch();
  const route = match?.route;
  const [, setLoadedCount] = useState(0);
  const module = route ? loadedPage(route) : undefined;
  const inLang = useKeyInLang();

  const dataKeys = route && !module ? (route.dataKeys?.(match.id, query) ?? []).map(inLang).join("\n") : "";

  useEffect(() => {
    if (!route || module) return;
    // SWR keeps each answer for the page's first render of it; a failure shows there.
    for (const key of dataKeys.split("\n").filter(Boolean)) preload(key, fetchPageData).catch(() => {});
    void trackLoading(loadPage(route)).then(() => setLoadedCount((n) => n + 1));
  }, [route, module, dataKeys]);

  if (!match) return <NotFoundState />;
  if (!module) return <LoadingState />;
  const Page = module.default;
  return <Page match={match as PageProps["match"]} query={query} />;
}
