/**
 * Maps the current location to its page through the shared route table. A page whose
 * code is not loaded yet (client navigation) shows the loading state while it loads,
 * and the header's progress bar runs until its code and data have arrived.
 */
import { useEffect, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { matchPage, type RouteMatch } from "../shared/routes.ts";
import { loadedPage, loadPage } from "./pages/registry.ts";
import { trackLoading } from "./routing/navigation-progress.ts";
import { LoadingState, NotFoundState } from "./shell/page-states.tsx";

export function useRouteMatch(): { match: RouteMatch | null; query: URLSearchParams } {
  const [location] = useLocation();
  const search = useSearch();
  const query = new URLSearchParams(search);
  return { match: matchPage(location, query), query };
}

export function PageSwitch() {
  const { match, query } = useRouteMatch();
  const route = match?.route;
  const [, setLoadedCount] = useState(0);
  const module = route ? loadedPage(route) : undefined;

  useEffect(() => {
    if (route && !module) void trackLoading(loadPage(route)).then(() => setLoadedCount((n) => n + 1));
  }, [route, module]);

  if (!match) return <NotFoundState />;
  if (!module) return <LoadingState />;
  const Page = module.default;
  return <Page match={match} query={query} />;
}
