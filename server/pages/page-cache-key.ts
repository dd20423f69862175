// What a page request renders from (its address, never the URL's own text) and its page cache key, so two
// requests share a key only if they render the same page (docs/behaviour.md#page-cache). The key holds the request's
// own path: a page is only served at a path the pages router answered (Express sends some elsewhere first).

import type { Lang } from "../../shared/langs.ts";
import { type PageAddress, pageAddressOf } from "../../shared/page-address.ts";
import { BASE_PATH, langPath, PAGE_ROUTES, type PageRoute, type RouteMatch, singleLangPath, splitLangPath } from "../../shared/routes.ts";
import { siteLangOf } from "../../shared/site-langs.ts";
import { searchOf } from "../../shared/with-query.ts";
import { memoByUrl } from "../cache/memo-by-url.ts";
import { routerTextOf } from "./router-text.ts";

export interface PageRequest {
  match: RouteMatch;
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
  search: string;
  /** The request path without its language prefix, and the canonical query. */
  keyRest: string;
  redirect?: string;
}

function urlPartOf(url: string, routes: readonly PageRoute[] = PAGE_ROUTES): UrlPart | null {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const query = new URLSearchParams(routerTextOf(q === -1 ? "" : url.slice(q + 1)));
  const address = pageAddressOf(routerTextOf(path), query, routes);
  if (!address) return null;
  const search = searchOf(address.query);
  // The request's own text keeps its key apart (an encoded prefix is not taken off), read as the address is.
  const rest = splitLangPath(path).path;
  const named = siteLangOf(query.get("lang"));
  const redirect = named ? BASE_PATH + langPath(address.path, named) + (search ? `?${search}` : "") : undefined;
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

export function pageRequestOf(url: string, routes: readonly PageRoute[] = PAGE_ROUTES): PageRequest | null {
  const part = urlPartOf(url, routes);
  return part && pageRequestFrom(part);
}

/** A URL whose language prefix comes twice or more: where its 301 leads, the prefix once and the query as it came. */
export function singlePrefixRedirectOf(url: string): string | undefined {
  const q = url.indexOf("?");
  const single = singleLangPath(routerTextOf(q === -1 ? url : url.slice(0, q)));
  return single === undefined ? undefined : BASE_PATH + single + (q === -1 ? "" : url.slice(q));
}

/** For the hot path, worked out once per URL; undefined for a URL that names no page or is redirected. */
export function createPageKeyReader(): (url: string) => string | undefined {
  const memoUrlPartOf = memoByUrl(urlPartOf);
  return (url) => {
    const part = memoUrlPartOf(url);
    return part && !part.redirect ? `${part.address.lang} ${part.keyRest}` : undefined;
  };
}

/** A purge by path reaches the page in every language through it. */
export function pageKeyRestOf(url: string): string | null {
  return urlPartOf(url)?.keyRest ?? null;
}

export function keyRestOf(key: string): string {
  return key.slice(key.indexOf(" ") + 1);
}
