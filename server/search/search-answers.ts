/**
 * Searches answered as the API's other answers are (docs/behaviour.md#search, "Cached briefly"):
 * parsed, asked of the index's thread within a deadline, kept briefly, counted.
 */
import { keyLangOf } from "../../shared/data-keys.ts";
import type { Lang } from "../../shared/page-state.ts";
import { BASE_PATH, langPath, splitLangPath } from "../../shared/routes.ts";
import { parseSearchCall, SEARCH_PATH, SEARCH_TYPES, type SearchQuery, type SearchResult } from "../../shared/search.ts";
import { baseLang } from "../../shared/site-langs.ts";
import { type ApiReader, answerHeadersOf } from "../api-proxy/api-reader.ts";
import { prepareAnswer } from "../cache/prepared-answer.ts";
import { type CachedAnswer, createResponseCache, etagOf } from "../cache/response-cache.ts";
import type { Loaded } from "../cache/swr-cache.ts";
import { HttpError } from "../http/errors.ts";
import type { Logger } from "../logger.ts";

/** Long enough for a burst, short enough that a change shows at once. */
const RESULT_FRESH_MS = 5000;
/** A search the index's thread has not answered by then is refused, not waited on. */
const SEARCH_DEADLINE_MS = 5000;

const isSearchKey = (key: string) => key === SEARCH_PATH || key.startsWith(`${SEARCH_PATH}?`);

/** The index keeps addresses in Chinese. */
function addressIn(url: string, lang: Lang): string {
  if (!url.startsWith(`${BASE_PATH}/`)) return url;
  return BASE_PATH + langPath(splitLangPath(url.slice(BASE_PATH.length)).path, lang);
}

const emptyResult = (): SearchResult => ({
  pageDataList: [],
  totalCount: 0,
  totalPageCount: 0,
  facets: Object.fromEntries(SEARCH_TYPES.map((type) => [type, 0])) as SearchResult["facets"],
});

interface AnswerOptions {
  /** The languages answered here. */
  langs: readonly Lang[];
  /** Asks the index's thread; undefined while there is none. */
  ask: () => ((query: SearchQuery) => Promise<SearchResult>) | undefined;
  logger: Logger;
  answerHeaders: readonly (readonly [string, string])[];
  now?: () => number;
}

export interface SearchAnswers {
  /** Results with their addresses in `lang` (default Chinese). */
  search(query: SearchQuery, lang?: Lang): Promise<SearchResult>;
  /** With the search call answered here. */
  readerWith(reader: ApiReader): ApiReader;
  /** By type (`all` when not narrowed); an answer served again is not counted again. */
  queries: Record<string, number>;
  empty: Record<string, number>;
}

export function createSearchAnswers(options: AnswerOptions): SearchAnswers {
  const { langs, logger } = options;
  const answers = (key: string) => isSearchKey(key) && langs.includes(keyLangOf(key).lang);
  const results = createResponseCache({ maxBytes: 8 * 1024 * 1024, staleMs: 0, now: options.now });
  const queries: Record<string, number> = {};
  const empty: Record<string, number> = {};

  /** In the index's thread; one it cannot answer in time is a 503, never a wait without end. */
  async function searchIndex(query: SearchQuery): Promise<SearchResult> {
    const ask = options.ask();
    if (!ask || !query.q.trim()) return emptyResult();
    let deadline: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      deadline = setTimeout(() => reject(new HttpError(503, "search is busy; try again in a moment")), SEARCH_DEADLINE_MS);
    });
    try {
      return await Promise.race([ask(query), late]);
    } catch (err) {
      if (err instanceof HttpError) throw err;
      logger.warn({ err: err instanceof Error ? err.message : String(err) }, "search index could not answer");
      throw new HttpError(503, "search is unavailable for a moment; try again");
    } finally {
      clearTimeout(deadline);
    }
  }

  async function search(query: SearchQuery, lang: Lang = baseLang()): Promise<SearchResult> {
    const result = await searchIndex(query);
    if (lang === baseLang()) return result;
    return { ...result, pageDataList: result.pageDataList.map((hit) => ({ ...hit, url: addressIn(hit.url, lang) })) };
  }

  async function compute(key: string): Promise<Loaded<CachedAnswer>> {
    const parsed = parseSearchCall(new URLSearchParams(key.slice(SEARCH_PATH.length + 1)));
    if (!parsed.ok) throw new HttpError(400, parsed.error);
    const result = await search(parsed.value, keyLangOf(key).lang);
    const label = parsed.value.type ?? "all";
    queries[label] = (queries[label] ?? 0) + 1;
    if (result.totalCount === 0) empty[label] = (empty[label] ?? 0) + 1;
    const json = { code: 0, msg: "ok", data: result };
    const body = Buffer.from(JSON.stringify(json));
    const etag = etagOf(body);
    const ready = await prepareAnswer(200, body, etag, answerHeadersOf(options.answerHeaders, key));
    return { value: { status: 200, body, etag, ready }, freshForMs: RESULT_FRESH_MS };
  }

  return {
    search,
    readerWith(base) {
      const load = (key: string) => () => compute(key);
      return {
        get: (key, requestId) => (answers(key) ? results.get(key, load(key)) : base.get(key, requestId)),
        current: (key, requestId) => (answers(key) ? results.current(key, load(key)) : base.current(key, requestId)),
        fresh: (key) => (answers(key) ? results.fresh(key) : base.fresh(key)),
        startsLoad: (key) => (answers(key) ? results.startsLoad(key) : base.startsLoad(key)),
        adoptShared: (key) => (answers(key) ? Promise.resolve(false) : base.adoptShared(key)),
      };
    },
    queries,
    empty,
  };
}
