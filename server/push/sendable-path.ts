/**
 * Which site paths may be sent to search engines by hand: a page of the site in canonical form,
 * never a `noindex` page nor an address the site answers with a redirect, however it is written
 * (docs/behaviour.md#telling-search-engines, "by hand").
 */
import { BASE_PATH, matchPath, singleLangPath, splitLangPath } from "../../shared/routes.ts";

/** Pages that are `noindex` (search, contact, preview and the site's other internal addresses) are never sent. */
const NOINDEX = /^\/(search\.html|contact\.html|_[^/]*)(\/|$)/;

/** RFC 3986's unreserved characters mean the same escaped or not: `%73earch.html` is `search.html`. */
export function decodeUnreserved(path: string): string {
  return path.replace(/%([0-9a-f]{2})/gi, (escaped, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(char) ? char : escaped.toUpperCase();
  });
}

/** Why `path` (a site path with its query) may not be sent, or undefined when it may. */
export function unsendablePath(path: string): string | undefined {
  const q = path.indexOf("?");
  const given = q === -1 ? path : path.slice(0, q);
  const query = new URLSearchParams(q === -1 ? "" : path.slice(q + 1));
  const bare = decodeUnreserved(given);
  if (!bare.startsWith(`${BASE_PATH}/`)) return `is not under ${BASE_PATH}/`;
  const inLang = bare.slice(BASE_PATH.length);
  if (/\/\.\.?(\/|$)|\/\/|%/.test(inLang)) return "is not a canonical path";
  const { path: pagePath } = splitLangPath(inLang);
  if (NOINDEX.test(pagePath)) return "is a page search engines are told not to index";
  const single = singleLangPath(inLang);
  if (single !== undefined) return `is redirected to ${BASE_PATH}${single}: give that address`;
  if (query.has("lang")) return "is redirected to the page's address in that language: give that address";
  const match = matchPath(pagePath, query);
  if (!match) return "is not a page of the site";
  if (match.route.unlisted) return "is a page search engines are told not to index";
  const { route, id } = match;
  if (route.detail && id === undefined) return "names no item: give a detail page with its item's number";
  if (route.detail && pagePath !== `${route.path}/${id}`)
    return `is not in canonical form: give ${BASE_PATH}${route.href({ id, lang: splitLangPath(inLang).lang })}`;
  if (bare !== given) return `is not in canonical form: give ${bare}`;
  return undefined;
}
