/** The bench's options, targets and fixed figures, read once (docs/bench.md). */
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

/** Read before this process pins itself to one CPU. */
export const CPU_COUNT = os.availableParallelism();
export const LOAD_AT_START = os.loadavg()[0] ?? 0;
export const SERVER_CPU = "0";
export const LOAD_CPU = "1";
export const TARGETS = {
  pageCacheHit: 0.8,
  apiCacheHit: 0.8,
  ssrNoPageCache: 0.1,
  /** Less than the home page shipped when its start-up on a phone was first measured. */
  homeJsGzipKb: 89.4,
  peakRssMb: 200,
  /** (m3): the crawler walks through both caches' bounds and its upstream's answers. */
  crawlPeakRssMb: 250,
  hotSetUnderCrawler: 0.8,
  hotSetHitRatio: 0.95,
  /** (m): a stored miss of the home page costs at most this much more server CPU than its render unstored (m0). */
  homeMissOverRenderMs: 5,
  /** (m0) and (m): what the home page's miss may cost, rendered only and rendered and stored (what a crawler's walk costs). */
  renderMissMs: 4,
  storedMissMs: 5,
  /** (s): a search computed on an index of 10,000 documents, CPU per query; the build of that index, and its RSS growth. */
  searchP99Ms: 20,
  searchBuildS: 60,
  searchRssGrowthMb: 100,
  /** (r): a redirect hit at least as fast as a page-cache hit (c); 100,000 rules loaded in under 2 s of CPU, a
   * lookup among them costing at most twice one among 10, and holding them costing at most 40 MB of RSS over (c). */
  redirectHitOverPageHit: 1,
  redirectLoadS: 2,
  redirectLookupOverSmall: 2,
  redirectRulesRssMb: 40,
  /** (s2): on 5,000 items, the costliest query under the input limits against an ordinary one (CPU), and its bound. */
  searchWorstOverOrdinary: 5,
  searchWorstMs: 20,
  /** (s3): the event loop's p99 delay while the search index of 5,000 items is refreshed. */
  searchRefreshDelayP99Ms: 20,
};
/** (m2): misses measured; (m0) and (m), the home page's, more, in rounds: their figures are compared with targets. */
export const MISSES = 40;
export const HOME_MISSES = 1000;
export const HOME_MISS_ROUNDS = 5;
/**
 * (m0, m): renders of the home page before those measured, as a server in service has made: the first
 * renders after a start run code V8 is still compiling, and cost more until some 600 have been made
 * (docs/bench.md, "Where a miss goes").
 */
export const MISS_WARMUP = 1000;
export const BURST_SIZE = 200;
/** The bare node:http rows: (a), the reference of every ratio, and (a2), the same with the page's headers. */
export const isBaseline = (id: string) => id === "a" || id === "a2";
export const HOME_PATH = "/portal/index.html";
export const API_PATH = "/api/portal/message/news/list?pageIndex=0&pageMaxCount=10";
/** Cold keys for (f): a news list page with a page size nothing else asks for, and an API list page. */
export const COLD_PAGE_PATH = "/portal/message/news/list.html?page=2&size=20";
export const COLD_API_PATH = "/api/portal/message/news/list?pageIndex=3&pageMaxCount=7";
/** (k) and (k2): the hot set's requests, and a crawler of 10,000 new keys on 4 connections beside it in (k2). */
export const HOT_SET_SCRIPT = path.join(import.meta.dirname, "hot-set.lua");
export const CRAWL = { connections: 4, limit: 10_000 };
/** Small enough that the crawler's keys alone would fill the caches many times over. */
export const CRAWL_CACHE_MB = "16";

export const { values: argv } = parseArgs({
  options: {
    strict: { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    duration: { type: "string", default: "3" },
    warmup: { type: "string", default: "3" },
    rounds: { type: "string", default: "6" },
    connections: { type: "string", default: "50" },
    gzip: { type: "boolean", default: false },
    "log-level": { type: "string", default: "info" },
    only: { type: "string" },
  },
});
export const only = argv.only ? new Set(argv.only.split(",").map((id) => id.trim())) : undefined;
/** The rows this run measures: all, or those of --only and the baseline every ratio needs. */
export const wanted = (...ids: string[]) => only === undefined || ids.some((id) => id === "a" || only.has(id));
export const options = {
  strict: argv.strict ?? false,
  build: !argv["no-build"],
  durationS: positive("duration", argv.duration),
  warmupS: positive("warmup", argv.warmup, 0),
  rounds: positive("rounds", argv.rounds),
  connections: positive("connections", argv.connections),
  gzip: argv.gzip ?? false,
  logLevel: argv["log-level"] ?? "info",
};
export const requestHeaders: Record<string, string> = options.gzip ? { "Accept-Encoding": "gzip" } : {};

function positive(name: string, raw: string | undefined, min = 1): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    process.stderr.write(`--${name} must be a whole number of at least ${min}\n`);
    process.exit(2);
  }
  return value;
}

export function log(line: string): void {
  process.stderr.write(`${line}\n`);
}
