/**
 * What a page request renders from, and its page cache key. The page is rendered from
 * its address (shared/page-address.ts), never from the URL's own text: the route, its
 * language (the path's prefix: docs/behaviour.md#languages), and the parameters it
 * reads, parsed as the page parses them and written back canonically. The key is the
 * language, then the request path without its language prefix and that canonical query:
 * the address's path follows from it, and keying on it means a page is only ever served
 * for a path the pages router itself answered (before the router, Express sends some
 * paths a detail route would match, such as a news feed, elsewhere). So two requests
 * share a key only if they render the same page, and a parameter the page does not read
 * (a tracking one, say) or writes differently (`?page=03`) changes neither. Request
 * headers (a cookie) never change a page.
 */
import { type PageAddress, pageAddressOf } from "../../shared/page-address.ts";
import { isLang, type Lang } from "../../shared/page-state.ts";
import { BASE_PATH, LANG_PREFIX, langPath, PAGE_ROUTES, type PageRoute, type RouteMatch } from "../../shared/routes.ts";
import { searchOf } from "../../shared/with-query.ts";
import { memoByUrl } from "../cache/memo-by-url.ts";
import { routerTextOf } from "./router-text.ts";

export interface PageRequest {
  match: RouteMatch;
  /** The address's path in its language (under the base path) and query (without "?"): what the page is rendered from. */
  path: string;
  search: string;
  query: URLSearchParams;
  lang: Lang;
  key: string;
  /** `?lang=` named a language: the page is answered by a 301 to its address in that language. */
  redirect?: string;
}

interface UrlPart {
  address: PageAddress;
  /** The address's query, written canonically. */
  search: string;
  /** The part of the key the URL decides beside the language: the request path without its language prefix, and the canonical query. */
  keyRest: string;
  /** The URL names a language in its query (`?lang=`): where that language's page is. */
  redirect?: string;
}

/** What the URL decides of a request (relative to the base path), or null when it names no page of `routes`. */
function urlPartOf(url: string, routes: readonly PageRoute[] = PAGE_ROUTES): UrlPart | null {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const query = new URLSearchParams(routerTextOf(q === -1 ? "" : url.slice(q + 1)));
  const address = pageAddressOf(routerTextOf(path), query, routes);
  if (!address) return null;
  const search = searchOf(address.query);
  const prefix = LANG_PREFIX[address.lang];
  const rest = prefix && path.startsWith(prefix) ? path.slice(prefix.length) : path;
  const named = query.get("lang");
  const redirect = isLang(named) ? BASE_PATH + langPath(address.path, named) + (search ? `?${search}` : "") : undefined;
  // The path holds no "?", so the key reads back one way only.
  return { address, search, keyRest: search ? `${rest}?${search}` : rest, redirect };
}

function pageRequestFrom(part: UrlPart): PageRequest {
  const { address, search } = part;
  return {
    match: address.match,
    path: langPath(address.path, address.lang),
    search,
    query: new URLSearchParams(search),
    lang: address.lang,
    key: `${address.lang} ${part.keyRest}`,
    redirect: part.redirect,
  };
}

/** `url` is the request target (path and query) relative to the base path; null when it names no page. */
export function pageRequestOf(url: string, routes: readonly PageRoute[] = PAGE_ROUTES): PageRequest | null {
  const part = urlPartOf(url, routes);
  return part && pageRequestFrom(part);
}

/**
 * The page cache key of a request, as `pageRequestOf` gives it, for the hot path: worked
 * out once per URL. Undefined for a URL that names no page, or is answered by a redirect.
 */
export function createPageKeyReader(): (url: string) => string | undefined {
  const memoUrlPartOf = memoByUrl(urlPartOf);
  return (url) => {
    const part = memoUrlPartOf(url);
    return part && !part.redirect ? `${part.address.lang} ${part.keyRest}` : undefined;
  };
}

/**
 * The part of a page cache key the URL decides beside its language, for a URL relative to
 * the base path (in either language); null when it names no page. A purge by path reaches
 * the page in every language through it.
 */
export function pageKeyRestOf(url: string): string | null {
  return urlPartOf(url)?.keyRest ?? null;
}

/** The part of a page cache key after its language: what `pageKeyRestOf` gives for its URL. */
export function keyRestOf(key: string): string {
  return key.slice(key.indexOf(" ") + 1);
}
