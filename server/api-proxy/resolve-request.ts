// Which call a request under /api/portal names, or why it is refused (docs/behaviour.md#bad-input); pure, so
// the router, the page loader and the tests get the same answer.
import { type ApiCall, matchCalls, normaliseCallQuery } from "../../shared/api-calls.ts";
import { CONTENT_LANG_QUERY, keyInLang } from "../../shared/data-keys.ts";
import type { Lang } from "../../shared/langs.ts";
import { parseId } from "../../shared/params.ts";
import { parseSearchCall, SEARCH_PATH, searchKey } from "../../shared/search.ts";
import { baseLang, langChoices, siteLangOf } from "../../shared/site-langs.ts";

export type ResolvedRequest =
  | { kind: "get"; call: ApiCall /** path + normalised query: the cache key and upstream path */; key: string }
  | { kind: "reader-put"; call: ApiCall }
  | { kind: "refused"; status: 400 | 404 | 405; message: string; allow?: string };

function classifyCall(path: string): ApiCall {
  return { id: `classify:${path}`, tag: "menu", method: "GET", path, payload: "list", query: {} };
}

/** The site search (docs/behaviour.md#search): answered by the server's own index, never by the upstream. */
const SEARCH_CALL: ApiCall = { id: "search", tag: "search", method: "GET", path: SEARCH_PATH, payload: "paged", query: {} };

function contentLangParam(query: URLSearchParams): { ok: true; lang: Lang } | { ok: false; error: string } {
  const all = query.getAll(CONTENT_LANG_QUERY);
  if (all.length > 1) return { ok: false, error: `${CONTENT_LANG_QUERY} is given more than once` };
  const raw = all[0];
  if (raw === undefined || raw === "") return { ok: true, lang: baseLang() };
  const lang = siteLangOf(raw);
  return lang ? { ok: true, lang } : { ok: false, error: `${CONTENT_LANG_QUERY} must be ${langChoices()}` };
}

/** Without `contentLang`, `lang=en` asks for what Chinese does, under the same key. */
export function resolveApiRequest(
  method: string,
  path: string,
  query: URLSearchParams,
  classifyPaths: ReadonlySet<string>,
  contentLang = false,
): ResolvedRequest {
  if (path === SEARCH_PATH) {
    if (method !== "GET" && method !== "HEAD") {
      return { kind: "refused", status: 405, message: `method ${method} is not allowed here; use GET, HEAD`, allow: "GET, HEAD" };
    }
    const parsed = parseSearchCall(query);
    if (!parsed.ok) return { kind: "refused", status: 400, message: parsed.error };
    const lang = contentLangParam(query);
    if (!lang.ok) return { kind: "refused", status: 400, message: lang.error };
    // Always by language, whatever CONTENT_LANG_PARAM says: the results' addresses are the language's pages.
    return { kind: "get", call: SEARCH_CALL, key: keyInLang(searchKey(parsed.value), lang.lang) };
  }
  const matches = matchCalls(path);
  if (matches.length === 0 && classifyPaths.has(path)) matches.push({ call: classifyCall(path) });
  if (matches.length === 0) return { kind: "refused", status: 404, message: `no such API call: ${path.slice(0, 200)}` };

  const verb = method === "HEAD" ? "GET" : method;
  const match = matches.find((m) => m.call.method === verb);
  if (!match) {
    const allow = [...new Set(matches.flatMap((m) => (m.call.method === "GET" ? ["GET", "HEAD"] : [m.call.method])))].join(", ");
    return { kind: "refused", status: 405, message: `method ${method} is not allowed here; use ${allow}`, allow };
  }
  if (match.call.method === "PUT") return { kind: "reader-put", call: match.call };

  let concretePath = path;
  if (match.rawId !== undefined) {
    const id = parseId("id", match.rawId);
    if (!id.ok) return { kind: "refused", status: 400, message: id.error };
    concretePath = match.call.path.replace("{id}", String(id.value));
  }
  const normalised = normaliseCallQuery(match.call, query);
  if (!normalised.ok) return { kind: "refused", status: 400, message: normalised.error };
  const lang = contentLangParam(query);
  if (!lang.ok) return { kind: "refused", status: 400, message: lang.error };
  const key = concretePath + normalised.search;
  return { kind: "get", call: match.call, key: contentLang && !match.call.uncached ? keyInLang(key, lang.lang) : key };
}

export function classifyPathsOf(classify: readonly { api: string }[] | undefined): Set<string> {
  return new Set((classify ?? []).map((c) => c.api.replace(/^\/api\/portal/, "")));
}
