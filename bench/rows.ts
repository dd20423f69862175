/** The bench's table rows: scenarios as measured, and the figures each becomes. */
import type { ServerProcess } from "../harness/server-process.ts";
import type { WrkResult } from "../harness/wrk.ts";
import { errorCount } from "../harness/wrk.ts";
import type { Crawler, CrawlResult } from "./crawler.ts";

export interface Scenario {
  id: string;
  label: string;
  server: ServerProcess;
  path: string;
  runs: WrkResult[];
  /** Per run: the server's CPU use, and other processes' use of the servers' CPU, in % of the run. */
  usage: { serverPct: number; othersPct: number }[];
  /** The cache header seen on this scenario's responses (X-Page-Cache for pages, X-Cache for the API). */
  cache: string;
  /** wrk's connections when not --connections. */
  connections?: number;
  /** Request headers beside --gzip's. */
  headers?: Record<string, string>;
  /** A wrk request script instead of GET `path`. */
  requests?: string;
  /** A crawler walking during each measured run, and each walk's figures. */
  crawler?: Crawler;
  crawls?: CrawlResult[];
}

export interface Row {
  id: string;
  label: string;
  reqPerS: number;
  spreadPct?: number;
  p50Ms: number;
  p99Ms: number;
  bytes: number;
  peakRssMb: number;
  /** Mean over the runs of the server's CPU use, %. */
  serverCpuPct?: number;
  /** Highest share of the servers' CPU other processes took during a run, %. */
  othersPct?: number;
  ratio?: number;
  cache: string;
  errors: number;
}

/** Of the hot set's answers over every round, the share a cache served. */
export function hitRatioOf(s: Scenario): number {
  const answers = s.runs.reduce((a, r) => a + r.cacheAnswers, 0);
  return answers === 0 ? 0 : s.runs.reduce((a, r) => a + r.cacheHits, 0) / answers;
}

/** The hot set's hit ratio, and the crawler's walk: keys per second while it walked, and their statuses. */
export function hotSetServedAs(s: Scenario): string {
  const hits = `hot set ${(hitRatioOf(s) * 100).toFixed(1)}% from cache`;
  const crawls = s.crawls ?? [];
  if (crawls.length === 0) return hits;
  const keys = crawls.reduce((a, c) => a + c.keys, 0);
  const seconds = crawls.reduce((a, c) => a + c.wallMs, 0) / 1000;
  const statuses = new Map<number, number>();
  for (const c of crawls) for (const [status, n] of c.statuses) statuses.set(status, (statuses.get(status) ?? 0) + n);
  const byStatus = [...statuses].map(([status, n]) => `${n} × ${status}`).join(", ");
  return `${hits}; crawler ${(keys / seconds).toFixed(0)} new keys/s past its burst, ${keys} in all (${byStatus})`;
}

export function rate(r: WrkResult): number {
  return r.requests / (r.durationUs / 1e6);
}

export function merge(s: Scenario, server: ServerProcess): Row {
  const rates = s.runs.map(rate);
  // The median: a round that met a noisy neighbour moves it far less than it moves a mean.
  const reqPerS = median(rates);
  const requests = s.runs.reduce((a, r) => a + r.requests, 0);
  return {
    id: s.id,
    label: s.label,
    reqPerS,
    spreadPct: rates.length > 1 ? ((Math.max(...rates) - Math.min(...rates)) / reqPerS) * 100 : undefined,
    p50Ms: median(s.runs.map((r) => r.p50Us)) / 1000,
    p99Ms: median(s.runs.map((r) => r.p99Us)) / 1000,
    bytes: s.runs.reduce((a, r) => a + r.bytes, 0) / requests,
    peakRssMb: server.peakRssMb(),
    serverCpuPct: s.usage.length > 0 ? mean(s.usage.map((u) => u.serverPct)) : undefined,
    othersPct: s.usage.length > 0 ? Math.max(...s.usage.map((u) => u.othersPct)) : undefined,
    cache: s.cache,
    errors: s.runs.reduce((a, r) => a + errorCount(r), 0),
  };
}

export const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
export const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
export const sumWhere = (counts: Map<string, number>, keep: (url: string) => boolean) =>
  [...counts].filter(([url]) => keep(url)).reduce((a, [, n]) => a + n, 0);
export const kb = (bytes: number) => (bytes / 1000).toFixed(1);
export const fixed = (ratio: number | undefined) => (ratio === undefined ? "—" : `${ratio.toFixed(2)} × (a)`);
