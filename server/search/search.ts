/**
 * Site search as the server runs it: the index built in the background and kept fresh, and
 * searches answered as the API's other answers are (docs/behaviour.md#search).
 */
import { keyInLang, keyLangOf } from "../../shared/data-keys.ts";
import { addressTag } from "../../shared/langs.ts";
import type { Lang } from "../../shared/page-state.ts";
import { BASE_PATH, langPath, splitLangPath } from "../../shared/routes.ts";
import { parseSearchCall, SEARCH_PATH, SEARCH_TYPES, type SearchQuery, type SearchResult, type SearchType } from "../../shared/search.ts";
import { baseLang, siteLangs } from "../../shared/site-langs.ts";
import { type ApiReader, answerHeadersOf } from "../api-proxy/api-reader.ts";
import type { UpstreamClient } from "../api-proxy/upstream-client.ts";
import { prepareAnswer } from "../cache/prepared-answer.ts";
import { type CachedAnswer, createResponseCache, etagOf } from "../cache/response-cache.ts";
import type { Loaded } from "../cache/swr-cache.ts";
import { HttpError } from "../http/errors.ts";
import type { Logger } from "../logger.ts";
import type { PurgeRequest } from "../purge/purge-request.ts";
import type { SearchDoc } from "./index-file.ts";
import { type IndexLease, LEASE_TOUCH_MS, takeIndexLease } from "./index-lease.ts";
import { type IndexThread, startIndexThread } from "./index-thread.ts";
import { type ContentReader, docOfListed, type JobNames, readDetail, readLists, uncachedReader } from "./read-content.ts";
import type { IndexChange, IndexFigures } from "./search-index.ts";
import { searchPageGuard } from "./search-page-guard.ts";

/** Long enough for a burst, short enough that a change shows at once. */
const RESULT_FRESH_MS = 5000;
const BATCH = 20;
const READS_AT_ONCE = 4;
/** Purges arriving together are read again together. */
const PURGE_SETTLE_MS = 50;
/** A search the index's thread has not answered by then is refused, not waited on. */
const SEARCH_DEADLINE_MS = 5000;

/**
 * Items the index found new, changed or gone, by their public identity: after each build
 * (`fromScratch`: there was no last index to compare with, so every item is new) and each
 * item a purge had read again.
 */
export interface IndexChanges {
  lang: Lang;
  fromScratch: boolean;
  items: IndexChange[];
}

export interface SearchFigures extends IndexFigures {
  /** By type (`all` when not narrowed); an answer served again is not counted again. */
  queries: Record<string, number>;
  empty: Record<string, number>;
}

interface SiteSearchOptions {
  file: string;
  /** 0: never read from the content API. */
  refreshMs: number;
  reader: ContentReader;
  logger: Logger;
  answerHeaders: readonly (readonly [string, string])[];
  /** Default Chinese alone. */
  langs?: readonly Lang[];
  /** Requests being answered: a build gives way to them. */
  inFlight?: () => number;
  /** Told what each build and each purged item's re-read changed. */
  onIndexChanges?: (changes: IndexChanges) => void;
  now?: () => number;
}

export interface SiteSearch {
  start(): void;
  close(): void;
  /** Results with their addresses in `lang` (default Chinese). */
  search(query: SearchQuery, lang?: Lang): Promise<SearchResult>;
  /** With the search call answered here. */
  readerWith(reader: ApiReader): ApiReader;
  onPurge(request: PurgeRequest): void;
  /** Or waits for the build under way and one more. */
  rebuild(): Promise<void>;
  /** Settles once the builds and re-reads asked for so far are done. */
  settled(): Promise<void>;
  figures(): SearchFigures;
}

const DETAIL_TAG = new RegExp(`^(${SEARCH_TYPES.join("|")}):([1-9]\\d{0,15})$`);
const KIND_TAG = new RegExp(`^(${SEARCH_TYPES.join("|")})(:list)?$`);
const DETAIL_PATHS: [RegExp, SearchType | ((m: RegExpExecArray) => SearchType)][] = [
  [/^\/portal(?:\/en)?\/message\/(news|notice)\/([1-9]\d{0,15})$/, (m) => m[1] as SearchType],
  [/^\/portal(?:\/en)?\/(product|service)\/([1-9]\d{0,15})$/, (m) => m[1] as SearchType],
  [/^\/portal(?:\/en)?\/job\/(?:society|school)\/([1-9]\d{0,15})$/, "job"],
  [/^\/api\/portal\/message\/(news|notice)\/([1-9]\d{0,15})$/, (m) => m[1] as SearchType],
  [/^\/api\/portal\/(?:product\/(product)|service\/(service))\/([1-9]\d{0,15})$/, (m) => (m[1] ?? m[2]) as SearchType],
  [/^\/api\/portal\/job\/job\/([1-9]\d{0,15})$/, "job"],
];

function itemOfPath(path: string): { type: SearchType; id: number } | undefined {
  const bare = path.split("?")[0] as string;
  for (const [pattern, type] of DETAIL_PATHS) {
    const m = pattern.exec(bare);
    if (m) return { type: typeof type === "string" ? type : type(m), id: Number(m[m.length - 1]) };
  }
  return undefined;
}

const isSearchKey = (key: string) => key === SEARCH_PATH || key.startsWith(`${SEARCH_PATH}?`);

/** The index keeps addresses in Chinese. */
function addressIn(url: string, lang: Lang): string {
  if (!url.startsWith(`${BASE_PATH}/`)) return url;
  return BASE_PATH + langPath(splitLangPath(url.slice(BASE_PATH.length)).path, lang);
}

async function mapLimit<T, R>(items: readonly T[], n: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      out[at] = await run(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const GIVE_WAY_MS = 1000;

const emptyResult = (): SearchResult => ({
  pageDataList: [],
  totalCount: 0,
  totalPageCount: 0,
  facets: Object.fromEntries(SEARCH_TYPES.map((type) => [type, 0])) as SearchResult["facets"],
});

function createSiteSearch(options: SiteSearchOptions): SiteSearch {
  const { reader, logger, refreshMs } = options;
  const langs = options.langs ?? [baseLang()];
  const lang = langs[0] ?? baseLang();
  const answers = (key: string) => isSearchKey(key) && langs.includes(keyLangOf(key).lang);
  const now = options.now ?? Date.now;
  let thread: IndexThread | undefined;
  const results = createResponseCache({ maxBytes: 8 * 1024 * 1024, staleMs: 0, now: options.now });
  const queries: Record<string, number> = {};
  const empty: Record<string, number> = {};
  let started = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let building: Promise<void> | undefined;
  let buildAgain = false;
  let jobNames: JobNames = { types: new Map(), addrs: new Map() };
  const queued = new Map<string, { type: SearchType; id: number }>();
  let rereading: Promise<void> | undefined;
  let lease: IndexLease | undefined;
  /** One process of an instance keeps the index; the others read it (docs/behaviour.md#search). */
  let touching: NodeJS.Timeout | undefined;
  const keepsIndex = () => {
    if (lease || closed) return lease !== undefined;
    lease = takeIndexLease(options.file);
    if (lease) {
      const held = lease;
      touching = setInterval(() => {
        // Taken over while this process could not touch it for a minute: it reads from now on.
        if (!held.touch() && lease === held) {
          lease = undefined;
          clearInterval(touching);
        }
      }, LEASE_TOUCH_MS).unref();
    }
    return lease !== undefined;
  };

  const index = (): IndexThread => {
    if (!thread) throw new Error("search is not started");
    return thread;
  };
  const previous = {
    fingerprintOf: (type: SearchType, id: number) => index().call("fingerprintOf", { type, id }),
    docOf: (type: SearchType, id: number) => index().call("docOf", { type, id }),
  };
  const tell = (fromScratch: boolean, items: IndexChange[]) => {
    if (items.length > 0 && options.onIndexChanges) options.onIndexChanges({ lang, fromScratch, items });
  };
  const refreshFigures = () =>
    index()
      .call("figures")
      .catch(() => undefined);

  /** A build is background work: it waits for visitors' requests under way before each item. */
  async function giveWay(): Promise<void> {
    const started = now();
    while ((options.inFlight?.() ?? 0) > 0 && now() - started < GIVE_WAY_MS && !closed) await sleep(10);
  }

  async function buildOnce(): Promise<void> {
    const began = now();
    const changes: IndexChange[] = [];
    try {
      await index().call("beginBuild");
      const read = await readLists(reader);
      jobNames = read.jobNames;
      let count = 0;
      for (const { type, items } of read.lists) {
        for (let at = 0; at < items.length; at += BATCH) {
          const docs = await mapLimit(items.slice(at, at + BATCH), READS_AT_ONCE, async (item) => {
            await giveWay();
            try {
              return await docOfListed(reader, type, item, jobNames, previous);
            } catch (err) {
              // Once closed, the upstream is going away too: a read failing then says nothing.
              if (!closed)
                logger.warn(
                  { type, id: item.id, err: err instanceof Error ? err.message : String(err) },
                  "search index could not read an item",
                );
              return typeof item.id === "number" ? previous.docOf(type, item.id) : undefined;
            }
          });
          if (closed) throw new Error("closed");
          const kept = docs.filter((doc): doc is SearchDoc => doc !== undefined);
          changes.push(...(await index().call("addToBuild", kept)));
          count += kept.length;
          await nextTurn();
        }
      }
      const { gone, fromScratch } = await index().call("finishBuild", began, now());
      await refreshFigures();
      logger.info({ documents: count, changed: changes.length, gone: gone.length, seconds: (now() - began) / 1000 }, "search index built");
      tell(fromScratch, [...changes, ...gone]);
    } catch (err) {
      await index()
        .call("abandonBuild")
        .catch(() => undefined);
      if (!closed)
        logger.warn({ err: err instanceof Error ? err.message : String(err) }, "search index build failed; the last index still answers");
    }
  }

  function rebuild(): Promise<void> {
    if (!thread) return Promise.resolve();
    if (!keepsIndex()) return refreshFigures().then(() => undefined);
    if (building) {
      buildAgain = true;
      return building;
    }
    building = (async () => {
      do {
        buildAgain = false;
        await buildOnce();
      } while (buildAgain && !closed);
    })().finally(() => {
      building = undefined;
    });
    return building;
  }

  async function reread(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, PURGE_SETTLE_MS));
    while (queued.size > 0 && !closed) {
      const items = [...queued.values()];
      queued.clear();
      const changes: IndexChange[] = [];
      await mapLimit(items, READS_AT_ONCE, async ({ type, id }) => {
        try {
          const doc = await readDetail(reader, type, id, jobNames);
          if (closed) return;
          // No fingerprint: the next build reads its detail again rather than trust this copy forever.
          if (doc) {
            await index().call("put", { ...doc, fingerprint: "" });
            changes.push({ type, id, change: "changed" });
          } else {
            await index().call("remove", { type, id });
            changes.push({ type, id, change: "gone" });
          }
        } catch (err) {
          logger.warn(
            { type, id, err: err instanceof Error ? err.message : String(err) },
            "search index could not read a purged item again",
          );
        }
      });
      await refreshFigures();
      tell(false, changes);
    }
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
    return { value: { status: 200, body, etag, json, ready }, freshForMs: RESULT_FRESH_MS };
  }

  /** In the index's thread; one it cannot answer in time is a 503, never a wait without end. */
  async function searchIndex(query: SearchQuery): Promise<SearchResult> {
    if (!thread || !query.q.trim()) return emptyResult();
    let deadline: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      deadline = setTimeout(() => reject(new HttpError(503, "search is busy; try again in a moment")), SEARCH_DEADLINE_MS);
    });
    try {
      return await Promise.race([thread.call("search", query), late]);
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

  return {
    start() {
      if (started) return;
      started = true;
      thread = startIndexThread(options.file, logger);
      void refreshFigures();
      if (refreshMs > 0) {
        setImmediate(() => void rebuild());
        timer = setInterval(() => void rebuild(), refreshMs).unref();
      }
    },
    close() {
      closed = true;
      if (timer) clearInterval(timer);
      if (touching) clearInterval(touching);
      const stopping = thread?.close();
      // Released once the thread has let the file go, so the next keeper never meets a write under way.
      void stopping?.finally(() => lease?.release());
      if (!stopping) lease?.release();
    },
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
    onPurge(request) {
      // Every process gets each purge: the one keeping the index applies it.
      if (!started || closed || !keepsIndex()) return;
      // A kind or everything is read again by a build, on the refresh's terms; an item named is read whatever they are.
      let again = request.all && refreshMs > 0;
      for (const tag of request.tags) {
        const detail = DETAIL_TAG.exec(tag);
        if (detail) queued.set(tag, { type: detail[1] as SearchType, id: Number(detail[2]) });
        else if (KIND_TAG.test(tag) && refreshMs > 0) again = true;
      }
      for (const path of request.paths) {
        const item = itemOfPath(path);
        if (item) queued.set(`${item.type}:${item.id}`, item);
      }
      if (again) void rebuild();
      if (queued.size > 0 && !rereading) {
        rereading = reread().finally(() => {
          rereading = undefined;
        });
      }
    },
    rebuild,
    async settled() {
      while (building || rereading) await (building ?? rereading);
    },
    figures: () => ({ ...(thread?.figures() ?? { documents: 0, bytes: 0 }), queries: { ...queries }, empty: { ...empty } }),
  };
}

/** A language's index beside the content language's: `search.en.db`, `search.zh-tw.db`. */
const langIndexFile = (file: string, lang: Lang): string =>
  file.endsWith(".db") ? `${file.slice(0, -3)}.${addressTag(lang)}.db` : `${file}.${addressTag(lang)}`;

/** An index per language with `contentLang`, else the content language's answers them all (docs/behaviour.md#search). */
function createSearchInLangs(options: SiteSearchOptions & { contentLang: boolean }): SiteSearch {
  const { contentLang, reader, ...common } = options;
  const [base, ...others] = siteLangs() as [Lang, ...Lang[]];
  const own = createSiteSearch({ ...common, reader, langs: contentLang ? [base] : [base, ...others] });
  if (!contentLang || others.length === 0) return own;
  const byLang = new Map<Lang, SiteSearch>([[base, own]]);
  for (const lang of others) {
    const inLang: ContentReader = { get: (key, requestId) => reader.get(keyInLang(key, lang), requestId) };
    byLang.set(lang, createSiteSearch({ ...common, file: langIndexFile(options.file, lang), reader: inLang, langs: [lang] }));
  }
  const all = [...byLang.values()];
  const sum = (a: Record<string, number>, b: Record<string, number>) => {
    const out = { ...a };
    for (const [name, n] of Object.entries(b)) out[name] = (out[name] ?? 0) + n;
    return out;
  };
  return {
    start: () => {
      for (const one of all) one.start();
    },
    close: () => {
      for (const one of all) one.close();
    },
    search: (query, lang = base) => (byLang.get(lang) ?? own).search(query, lang),
    readerWith: (next) => all.reduceRight((inner, one) => one.readerWith(inner), next),
    onPurge: (request) => {
      for (const one of all) one.onPurge(request);
    },
    rebuild: () => Promise.all(all.map((one) => one.rebuild())).then(() => undefined),
    settled: () => Promise.all(all.map((one) => one.settled())).then(() => undefined),
    // The last build is the oldest of them: the one a stale index would show.
    figures: () => {
      const each = all.map((one) => one.figures());
      const known = <T>(values: (T | undefined)[]): T[] | undefined => (values.includes(undefined) ? undefined : (values as T[]));
      const built = known(each.map((f) => f.builtAt));
      const seconds = known(each.map((f) => f.buildSeconds));
      return {
        documents: each.reduce((n, f) => n + f.documents, 0),
        bytes: each.reduce((n, f) => n + f.bytes, 0),
        builtAt: built && Math.min(...built),
        buildSeconds: seconds?.reduce((n, s) => n + s, 0),
        queries: each.map((f) => f.queries).reduce(sum),
        empty: each.map((f) => f.empty).reduce(sum),
      };
    },
  };
}

interface SearchSettings {
  file: string;
  refreshMs: number;
  contentLang: boolean;
  contentLangParam: string | undefined;
}

type SearchDeps = Omit<SiteSearchOptions, "file" | "refreshMs" | "reader" | "langs"> & { upstream: UpstreamClient };

export function createSearch(settings: SearchSettings, { upstream, ...deps }: SearchDeps) {
  const reader = uncachedReader(upstream, settings.contentLangParam);
  const { file, refreshMs, contentLang } = settings;
  return Object.assign(createSearchInLangs({ file, refreshMs, contentLang, reader, ...deps }), { pageGuard: searchPageGuard() });
}
