/**
 * What a page request renders from, and its page cache key. The page is rendered from
 * its address (shared/page-address.ts), never from the URL's own text: the route, and
 * the parameters it reads, parsed as the page parses them and written back
 * canonically. The key is that canonical query, the language (with whether the URL
 * named it: links then keep it), and the request path: the address's path follows from
 * it, and keying on it means a page is only ever served for a path the pages router
 * itself answered (before the router, Express sends some paths a detail route would
 * match, such as a news feed, elsewhere). So two requests share a key only if they
 * render the same page, and a parameter the page does not read (a tracking one, say)
 * or writes differently (`?page=03`, `?jobTypeIds=2&jobTypeIds=1`) changes neither.
 */
import type { IncomingHttpHeaders } from "node:http";
import { type PageAddress, pageAddressOf } from "../../shared/page-address.ts";
import type { Lang } from "../../shared/page-state.ts";
import { PAGE_ROUTES, type PageRoute, type RouteMatch } from "../../shared/routes.ts";
import { searchOf } from "../../shared/with-query.ts";
import { memoByUrl } from "../http/memo-by-url.ts";
import { langOf } from "./lang.ts";
import { routerTextOf } from "./router-text.ts";

export interface PageRequest {
  match: RouteMatch;
  /** The address's path and query (without "?"): what the page is rendered from. */
  path: string;
  search: string;
  query: URLSearchParams;
  lang: Lang;
  langInUrl: boolean;
  key: string;
}

interface UrlPart {
  address: PageAddress;
  /** The address's query, written canonically. */
  search: string;
  /** The part of the key the URL alone decides: the request path and the canonical query. */
  keyRest: string;
  /** The URL's query as the router reads it: `langOf` finds the URL's language there. */
  query: URLSearchParams;
}

/** What the URL alone decides of a request (relative to the base path), or null when it names no page of `routes`. */
function urlPartOf(url: string, routes: readonly PageRoute[] = PAGE_ROUTES): UrlPart | null {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const query = new URLSearchParams(routerTextOf(q === -1 ? "" : url.slice(q + 1)));
  const address = pageAddressOf(routerTextOf(path), query, routes);
  if (!address) return null;
  const search = searchOf(address.query);
  // The path holds no "?", so the key reads back one way only.
  return { address, search, keyRest: search ? `${path}?${search}` : path, query };
}

/** The language of a request and its key: the one function both paths key with. */
function langAndKeyOf(part: UrlPart, headers: IncomingHttpHeaders, defaultLang: Lang) {
  const { lang, inUrl } = langOf(headers, part.query, defaultLang);
  return { lang, langInUrl: inUrl, key: `${lang}${inUrl ? "!" : ""} ${part.keyRest}` };
}

function pageRequestFrom(part: UrlPart, headers: IncomingHttpHeaders, defaultLang: Lang): PageRequest {
  const { address, search } = part;
  return {
    match: address.match,
    path: address.path,
    search,
    query: new URLSearchParams(search),
    ...langAndKeyOf(part, headers, defaultLang),
  };
}

/** `url` is the request target (path and query) relative to the base path; null when it names no page. */
export function pageRequestOf(
  url: string,
  headers: IncomingHttpHeaders,
  defaultLang: Lang,
  routes: readonly PageRoute[] = PAGE_ROUTES,
): PageRequest | null {
  const part = urlPartOf(url, routes);
  return part && pageRequestFrom(part, headers, defaultLang);
}

/**
 * The page cache key of a request, as `pageRequestOf` gives it, for the hot path: what
 * the URL decides is worked out once per URL; only the language cookie is read per request.
 */
export function createPageKeyReader(defaultLang: Lang): (url: string, headers: IncomingHttpHeaders) => string | undefined {
  const memoUrlPartOf = memoByUrl(urlPartOf);
  return (url, headers) => {
    const part = memoUrlPartOf(url);
    return part ? langAndKeyOf(part, headers, defaultLang).key : undefined;
  };
}

/**
 * The part of a page cache key the URL decides (the request path and canonical query),
 * for a URL relative to the base path; null when it names no page. A purge by path
 * reaches the page in every language through it.
 */
export function pageKeyRestOf(url: string): string | null {
  return urlPartOf(url)?.keyRest ?? null;
}

/** The part of a page cache key after its language: what `pageKeyRestOf` gives for its URL. */
export function keyRestOf(key: string): string {
  return key.slice(key.indexOf(" ") + 1);
}
