/**
 * A page URL reduced to what its page renders from: the route, the form of its path,
 * and the parameters the page reads, parsed by its route module (shared/page-route.ts)
 * and written back in one canonical form. Two URLs with the same address render the
 * same page, so the server renders from the address (never from the URL's own text)
 * and keys its page cache on it, and the language switch links to it.
 */
import type { PageRoute } from "./page-route.ts";
import type { Lang } from "./page-state.ts";
import { matchPage, PAGE_ROUTES, type RouteMatch, splitLangPath } from "./routes.ts";
import type { QueryValues } from "./with-query.ts";

export interface PageAddress {
  match: RouteMatch;
  /** The language its path is in (docs/behaviour.md#languages). */
  lang: Lang;
  /** Path under the base path, without the language prefix: the route's, or a detail's route and id segment. */
  path: string;
  /** The parameters the page reads, normalised, in the order the site's links write them. */
  query: QueryValues;
}

/** The query values a page reads, normalised: defaults left out, ids sorted and de-duplicated. */
export function pageQueryOf(match: RouteMatch, query: URLSearchParams): QueryValues {
  return match.route.query?.(query) ?? {};
}

/**
 * The address of a path (under the base path) and query as the client router reads
 * them, or null when they name no page. A detail keeps the form it was asked in
 * (`/x/12` or `/x?id=12`), as the router's location does.
 */
export function pageAddressOf(pathInLang: string, query: URLSearchParams, routes: readonly PageRoute[] = PAGE_ROUTES): PageAddress | null {
  const { lang, path } = splitLangPath(pathInLang);
  const match = matchPage(path, query, routes);
  if (!match) return null;
  const { route, id } = match;
  if (!route.detail) return { match, lang, path, query: pageQueryOf(match, query) };
  return { match, lang, path, query: path === route.path ? { id } : {} };
}
