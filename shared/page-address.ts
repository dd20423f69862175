/** A page URL reduced to what its page renders from: the server renders and caches by it (docs/behaviour.md#page-cache). */
import type { PageRoute } from "./page-route.ts";
import type { Lang } from "./page-state.ts";
import { matchPath, PAGE_ROUTES, type RouteMatch, splitLangPath } from "./routes.ts";
import type { QueryValues } from "./with-query.ts";

export interface PageAddress {
  match: RouteMatch;
  lang: Lang;
  path: string;
  query: QueryValues;
}

export function pageQueryOf(match: RouteMatch, query: URLSearchParams): QueryValues {
  return match.route.query?.(query) ?? {};
}

/** A detail keeps the form it was asked in (`/x/12` or `/x?id=12`), as the router's location does. */
export function pageAddressOf(pathInLang: string, query: URLSearchParams, routes: readonly PageRoute[] = PAGE_ROUTES): PageAddress | null {
  const { lang, path } = splitLangPath(pathInLang);
  const match = matchPath(path, query, routes);
  if (!match) return null;
  const { route, id } = match;
  if (!route.detail) return { match, lang, path, query: pageQueryOf(match, query) };
  return { match, lang, path, query: path === route.path ? { id } : {} };
}
