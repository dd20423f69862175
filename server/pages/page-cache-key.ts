/**
 * What a page request renders from, and its page cache key. The key is the language
 * (with whether the URL named it: links then keep it) and the page's address
 * (shared/page-address.ts): the route and the parameters it reads, parsed as the page
 * parses them and written back canonically, never the URL's own text. The page is
 * rendered from that same address, so two requests share a key only if they render the
 * same page, and a parameter the page does not read (a tracking one, say) changes
 * neither.
 */
import type { IncomingHttpHeaders } from "node:http";
import { type PageAddress, pageAddressOf } from "../../shared/page-address.ts";
import type { Lang } from "../../shared/page-state.ts";
import type { RouteMatch } from "../../shared/routes.ts";
import { withQuery } from "../../shared/with-query.ts";
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
  /** The address as one URL, the part of the key the URL alone decides. */
  href: string;
  /** The URL's query as the router reads it: `langOf` finds the URL's language there. */
  query: URLSearchParams;
}

/** What the URL alone decides of a request (relative to the base path), or null when it names no page. */
function urlPartOf(url: string): UrlPart | null {
  const q = url.indexOf("?");
  const query = new URLSearchParams(routerTextOf(q === -1 ? "" : url.slice(q + 1)));
  const address = pageAddressOf(routerTextOf(q === -1 ? url : url.slice(0, q)), query);
  return address && { address, href: withQuery(address.path, address.query), query };
}

/** The language of a request and its key: the one function both paths key with. */
function langAndKeyOf(part: UrlPart, headers: IncomingHttpHeaders, defaultLang: Lang) {
  const { lang, inUrl } = langOf(headers, part.query, defaultLang);
  return { lang, langInUrl: inUrl, key: `${lang}${inUrl ? "!" : ""} ${part.href}` };
}

function pageRequestFrom(part: UrlPart, headers: IncomingHttpHeaders, defaultLang: Lang): PageRequest {
  const q = part.href.indexOf("?");
  const search = q === -1 ? "" : part.href.slice(q + 1);
  const { match, path } = part.address;
  return { match, path, search, query: new URLSearchParams(search), ...langAndKeyOf(part, headers, defaultLang) };
}

/** `url` is the request target (path and query) relative to the base path; null when it names no page. */
export function pageRequestOf(url: string, headers: IncomingHttpHeaders, defaultLang: Lang): PageRequest | null {
  const part = urlPartOf(url);
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
