/**
 * The page cache key: path, the query parameters pages read (sorted; anything else,
 * such as tracking parameters, does not change the page), and the language with where
 * it came from (links keep a language that came from the URL).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Lang } from "../../shared/page-state.ts";
import { PAGE_QUERY_PARAMS } from "../../shared/routes.ts";
import { langOf } from "./lang.ts";

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
  let key: string | undefined = `${lang}${inUrl ? "!" : ""} ${path}`;
  for (const name of PAGE_QUERY_PARAMS) {
    const values = query.getAll(name);
    if (values.length === 0) continue;
    if (values.some((v) => v.length > MAX_PARAM_LENGTH)) {
      key = undefined;
      break;
    }
    key += `&${name}=${values.join("|")}`;
  }
  return { path, search, query, lang, langInUrl: inUrl, key };
}
