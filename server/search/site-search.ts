/**
 * One language's site search as the server runs it: its index built in the background and kept
 * fresh by the one process holding its lease, purges applied, searches answered
 * (docs/behaviour.md#search).
 */
import type { Lang } from "../../shared/page-state.ts";
import type { SearchQuery, SearchResult, SearchType } from "../../shared/search.ts";
import { baseLang } from "../../shared/site-langs.ts";
import type { ApiReader } from "../api-proxy/api-reader.ts";
import type { Logger } from "../logger.ts";
import type { PurgeRequest } from "../purge/purge-request.ts";
import type { SearchDoc } from "./index-file.ts";
import { type IndexLease, LEASE_TOUCH_MS, takeIndexLease } from "./index-lease.ts";
import { type IndexThread, startIndexThread } from "./index-thread.ts";
import { purgedItems } from "./purged-items.ts";
import { type ContentReader, docOfListed, type JobNames, readDetail, readLists } from "./read-content.ts";
import { createSearchAnswers } from "./search-answers.ts";
import type { IndexChange, IndexFigures } from "./search-index.ts";

const BATCH = 20;
const READS_AT_ONCE = 4;
/** Purges arriving together are read again together. */
const PURGE_SETTLE_MS = 50;

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

export interface SiteSearchOptions {
  file: string;
  /** 0: never read from the content API. */
  refreshMs: number;
  /** SQLite's page cache of each index file the thread holds open (SEARCH_CACHE_MB); absent: SEARCH_CACHE_MB's default. */
  cacheKb?: number;
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

export function createSiteSearch(options: SiteSearchOptions): SiteSearch {
  const { reader, logger, refreshMs } = options;
  const langs = options.langs ?? [baseLang()];
  const lang = langs[0] ?? baseLang();
  const now = options.now ?? Date.now;
  let thread: IndexThread | undefined;
  const answers = createSearchAnswers({
    langs,
    ask: () => {
      const running = thread;
      return running && ((query) => running.call("search", query));
    },
    logger,
    answerHeaders: options.answerHeaders,
    now: options.now,
  });
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

  return {
    start() {
      if (started) return;
      started = true;
      thread = startIndexThread(options.file, logger, options.cacheKb);
      void refreshFigures();
      if (refreshMs > 0) {
        setImmediate(() => void rebuild());
        timer = setInterval(() => void rebuild(), refreshMs).unref();
      } else {
        // An index an earlier version wrote answers nothing: it is made again once, though never on a timer.
        void index()
          .call("outdated")
          .then((outdated) => (outdated ? rebuild() : undefined))
          .catch(() => undefined);
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
    search: answers.search,
    readerWith: answers.readerWith,
    onPurge(request) {
      // Every process gets each purge: the one keeping the index applies it.
      if (!started || closed || !keepsIndex()) return;
      // A kind or everything is read again by a build, on the refresh's terms; an item named is read whatever they are.
      const { items, kinds } = purgedItems(request);
      for (const [key, item] of items) queued.set(key, item);
      if (kinds && refreshMs > 0) void rebuild();
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
    figures: () => ({ ...(thread?.figures() ?? { documents: 0, bytes: 0 }), queries: { ...answers.queries }, empty: { ...answers.empty } }),
  };
}
