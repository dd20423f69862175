/**
 * The page cache key: path, the query parameters pages read (sorted; anything else,
 * such as tracking parameters, does not change the page), and the language with where
 * it came from (links keep a language that came from the URL).
 */
import type { IncomingHttpHeaders } from "node:http";
import { isLang, type Lang } from "../../shared/page-state.ts";
import { PAGE_QUERY_PARAMS } from "../../shared/routes.ts";
import { memoByUrl } from "../http/memo-by-url.ts";
import { langOf, savedLangOf } from "./lang.ts";

/** Longer values are not worth caching under their own key: no page reads that much. */
const MAX_PARAM_LENGTH = 200;

export interface PageRequest {
  path: string;
  search: string;
  query: URLSearchParams;
  lang: Lang;
  langInUrl: boolean;
  /** Undefined when the request should not be served from or stored in the page cache. */
  key: string | undefined;
}

/** `url` is the request target (path and query) relative to the base path. */
export function pageRequestOf(url: string, headers: IncomingHttpHeaders, defaultLang: Lang): PageRequest {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? "" : url.slice(q + 1);
  const query = new URLSearchParams(search);
  const { lang, inUrl } = langOf(headers, query, defaultLang);
  return { path, search, query, lang, langInUrl: inUrl, key: keyOf(lang, inUrl, keyRestOf(path, query)) };
}

/** The part of the key the URL alone decides: path and page parameters; undefined when not to be cached. */
function keyRestOf(path: string, query: URLSearchParams): string | undefined {
  let rest = ` ${path}`;
  for (const name of PAGE_QUERY_PARAMS) {
    const values = query.getAll(name);
    if (values.length === 0) continue;
    if (values.some((v) => v.length > MAX_PARAM_LENGTH)) return undefined;
    rest += `&${name}=${values.join("|")}`;
  }
  return rest;
}

const keyOf = (lang: Lang, langInUrl: boolean, rest: string | undefined) =>
  rest === undefined ? undefined : `${lang}${langInUrl ? "!" : ""}${rest}`;

/**
 * The page cache key of a request, as `pageRequestOf` gives it, for the hot path: what
 * the URL decides is worked out once per URL; only the language cookie is read per request.
 */
export function createPageKeyReader(defaultLang: Lang): (url: string, headers: IncomingHttpHeaders) => string | undefined {
  const urlPartOf = memoByUrl((url) => {
    const q = url.indexOf("?");
    const query = new URLSearchParams(q === -1 ? "" : url.slice(q + 1));
    const fromUrl = query.get("lang");
    return { urlLang: isLang(fromUrl) ? fromUrl : undefined, rest: keyRestOf(q === -1 ? url : url.slice(0, q), query) };
  });
  return (url, headers) => {
    const { urlLang, rest } = urlPartOf(url);
    return urlLang ? keyOf(urlLang, true, rest) : keyOf(savedLangOf(headers) ?? defaultLang, false, rest);
  };
}
