// The app's Prometheus metrics (docs/behaviour.md#metrics): requests and upstream calls observed as they end,
// the rest read at scrape time from its owner's totals, so the hot paths do no extra counting.
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { API_PREFIX, matchCalls } from "../../shared/api-calls.ts";
import type { PartsUsed } from "../../shared/page-state.ts";
import type { MissBudget } from "../admission/miss-budget.ts";
import type { ReaderGuard } from "../admission/reader-guard.ts";
import type { CacheStats } from "../cache/swr-cache.ts";
import { type RouteKind, routeKindOf, statusClassOf } from "./route-kind.ts";

type CacheFigures = Pick<CacheStats, "entries" | "bytes" | "maxBytes" | "hits" | "misses" | "stale" | "evictions" | "shared">;

export interface UpstreamOutcome {
  method: string;
  path: string;
  seconds: number;
  status?: number;
  failure?: string;
}

export interface SearchFigures {
  documents: number;
  bytes: number;
  builtAt?: number;
  buildSeconds?: number;
  queries: Record<string, number>;
  empty: Record<string, number>;
}

export interface AppMetrics {
  registry: Registry;
  observeRequest(url: string, status: number, seconds: number): void;
  observeUpstream(outcome: UpstreamOutcome): void;
  registerCache(name: string, cache: { stats(): CacheFigures }): void;
  registerShared(source: string, read: () => number): void;
  observeRenderStage(stage: RenderStage, seconds: number): void;
  observeParts(parts: PartsUsed): void;
  registerSearch(read: () => SearchFigures): void;
  registerMissingPages(read: () => Record<string, number>): void;
  registerRedirects(read: () => RedirectFigures): void;
}

export interface RedirectFigures {
  rules: number;
  loadFailures: number;
}

export const RENDER_STAGES = ["data", "render", "compress"] as const;
export type RenderStage = (typeof RENDER_STAGES)[number];

interface AppMetricsSources {
  missBudget: MissBudget;
  readerGuard: ReaderGuard;
}

const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const UPSTREAM_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function upstreamCallOf(method: string, path: string): string {
  const bare = path.split("?")[0] as string;
  if (!bare.startsWith(`${API_PREFIX}/`)) return "other";
  return matchCalls(bare.slice(API_PREFIX.length)).find((m) => m.call.method === method)?.call.id ?? "other";
}

export function createAppMetrics(registry: Registry, sources: AppMetricsSources): AppMetrics {
  const caches = new Map<string, { stats(): CacheFigures }>();
  const sharedWork = new Map<string, () => number>([["reader", () => sources.readerGuard.stats().shared]]);
  const registers = [registry];

  const renderStages = new Histogram({
    name: "portal_page_render_stage_seconds",
    help: "Pages rendered for a request or a refresh, by stage: data (API answers), render (React and the document), compress (the cached forms)",
    labelNames: ["stage"],
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const parts = new Counter({
    name: "portal_page_parts_total",
    help: "Headers and footers of rendered pages: kept (rendered once for the site version and language, spliced in) or rendered in place",
    labelNames: ["source"],
    registers,
  });
  const requests = new Histogram({
    name: "portal_http_request_duration_seconds",
    help: "Requests answered, by route kind and status class, and how long each took (its _count is the request count)",
    labelNames: ["kind", "status_class"],
    buckets: REQUEST_BUCKETS,
    registers,
  });
  // One child per (kind, status class), so an observation hashes no label object.
  const requestChildren = new Map<string, ReturnType<typeof requests.labels>>();
  const requestChild = (kind: RouteKind, statusClass: string) => {
    const id = `${kind} ${statusClass}`;
    let child = requestChildren.get(id);
    if (!child) {
      child = requests.labels(kind, statusClass);
      requestChildren.set(id, child);
    }
    return child;
  };

  const upstreamDuration = new Histogram({
    name: "portal_upstream_request_duration_seconds",
    help: "Upstream requests by call (the call table's id), and how long each took to end",
    labelNames: ["call"],
    buckets: UPSTREAM_BUCKETS,
    registers,
  });
  const upstreamRequests = new Counter({
    name: "portal_upstream_requests_total",
    help: "Upstream requests by call and outcome: the status class it answered (2xx...), or timeout, network, too-large or busy",
    labelNames: ["call", "outcome"],
    registers,
  });

  const cacheCounter = (name: string, help: string, figure: keyof CacheFigures) =>
    new Counter({
      name,
      help,
      labelNames: ["cache"],
      registers,
      collect() {
        this.reset();
        for (const [cache, source] of caches) this.inc({ cache }, source.stats()[figure]);
      },
    });
  const cacheGauge = (name: string, help: string, figure: keyof CacheFigures) =>
    new Gauge({
      name,
      help,
      labelNames: ["cache"],
      registers,
      collect() {
        this.reset();
        for (const [cache, source] of caches) this.set({ cache }, source.stats()[figure]);
      },
    });
  cacheCounter("portal_cache_hits_total", "Cache lookups answered from a fresh entry", "hits");
  cacheCounter("portal_cache_misses_total", "Cache lookups with nothing to answer from", "misses");
  cacheCounter("portal_cache_stale_total", "Cache lookups answered from a stale entry while it is refreshed", "stale");
  cacheCounter("portal_cache_evictions_total", "Entries pushed out of a cache to make room", "evictions");
  cacheGauge("portal_cache_bytes", "Bytes a cache holds", "bytes");
  cacheGauge("portal_cache_max_bytes", "The bytes a cache may hold", "maxBytes");
  cacheGauge("portal_cache_entries", "Entries a cache holds", "entries");

  new Counter({
    name: "portal_inflight_deduplications_total",
    help: "Requests that joined identical work already under way instead of starting their own: a cache's load or a page render (by cache), or a reader update",
    labelNames: ["source"],
    registers,
    collect() {
      const totals = new Map<string, number>();
      for (const [cache, source] of caches) totals.set(cache, source.stats().shared);
      for (const [source, read] of sharedWork) totals.set(source, (totals.get(source) ?? 0) + read());
      this.reset();
      for (const [source, total] of totals) this.inc({ source }, total);
    },
  });
  new Counter({
    name: "portal_miss_budget_refusals_total",
    help: "Requests refused (429) because their client spent its miss budget (MISS_RATE_PER_MIN)",
    registers,
    collect() {
      this.reset();
      this.inc(sources.missBudget.refused);
    },
  });
  new Counter({
    name: "portal_reader_updates_total",
    help: "Reader count updates by outcome: forwarded to the upstream, duplicate (inside the window), shared (joined one under way), limited (over the rate)",
    labelNames: ["outcome"],
    registers,
    collect() {
      this.reset();
      for (const [outcome, count] of Object.entries(sources.readerGuard.stats())) this.inc({ outcome }, count);
    },
  });

  let searchFigures: (() => SearchFigures) | undefined;
  const searchCounter = (name: string, help: string, figure: "queries" | "empty") =>
    new Counter({
      name,
      help,
      labelNames: ["type"],
      registers,
      collect() {
        this.reset();
        for (const [type, n] of Object.entries(searchFigures?.()[figure] ?? {})) this.inc({ type }, n);
      },
    });
  searchCounter(
    "portal_search_queries_total",
    "Searches computed, by type (all: not narrowed); an answer served again from its few seconds in cache is not counted again",
    "queries",
  );
  searchCounter("portal_search_empty_queries_total", "Searches computed that found nothing, by type", "empty");
  const searchGauge = (name: string, help: string, read: (figures: SearchFigures) => number | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.reset();
        const value = searchFigures ? read(searchFigures()) : undefined;
        if (value !== undefined) this.set(value);
      },
    });
  searchGauge("portal_search_index_documents", "Items the search index holds", (f) => f.documents);
  searchGauge("portal_search_index_bytes", "Size of the search index file", (f) => f.bytes);
  searchGauge("portal_search_index_built_timestamp_seconds", "When the last search index build completed", (f) =>
    f.builtAt === undefined ? undefined : f.builtAt / 1000,
  );
  searchGauge("portal_search_index_build_duration_seconds", "How long the last search index build took", (f) => f.buildSeconds);

  let missingPages: (() => Record<string, number>) | undefined;
  new Counter({
    name: "portal_missing_pages_total",
    help: "Missing pages answered, by status: not-found pages (404), gone (410), and catch-all redirects to the home page (302)",
    labelNames: ["status"],
    registers,
    collect() {
      this.reset();
      for (const [status, n] of Object.entries(missingPages?.() ?? {})) this.inc({ status }, n);
    },
  });
  let redirectFigures: (() => RedirectFigures) | undefined;
  new Gauge({
    name: "portal_redirect_rules",
    help: "Redirect rules in force (REDIRECTS_FILE)",
    registers,
    collect() {
      this.reset();
      if (redirectFigures) this.set(redirectFigures().rules);
    },
  });
  new Counter({
    name: "portal_redirect_rules_load_failures_total",
    help: "Reloads of REDIRECTS_FILE refused (unreadable or a bad line): the rules before them stay in force",
    registers,
    collect() {
      this.reset();
      if (redirectFigures) this.inc(redirectFigures().loadFailures);
    },
  });

  return {
    registry,
    observeRequest(url, status, seconds) {
      requestChild(routeKindOf(url, status), statusClassOf(status)).observe(seconds);
    },
    observeUpstream({ method, path, seconds, status, failure }) {
      const call = upstreamCallOf(method, path);
      upstreamDuration.observe({ call }, seconds);
      upstreamRequests.inc({ call, outcome: failure ?? statusClassOf(status ?? 0) });
    },
    registerCache(name, cache) {
      caches.set(name, cache);
    },
    registerShared(source, read) {
      sharedWork.set(source, read);
    },
    observeRenderStage(stage, seconds) {
      renderStages.observe({ stage }, seconds);
    },
    observeParts({ kept, inPlace }) {
      if (kept > 0) parts.inc({ source: "kept" }, kept);
      if (inPlace > 0) parts.inc({ source: "rendered" }, inPlace);
    },
    registerSearch(read) {
      searchFigures = read;
    },
    registerMissingPages(read) {
      missingPages = read;
    },
    registerRedirects(read) {
      redirectFigures = read;
    },
  };
}
