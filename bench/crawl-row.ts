/**
 * The bench's (m3) row: a search engine's crawler walking every news detail page of a site of 10,000 news, each
 * cold (neither its page nor its data asked for before), on 32 connections, against a server whose upstream is a
 * counting stand-in in front of that site. Pages a second, the server's CPU per page (counted until it is idle
 * again), upstream requests per page and the server's peak RSS during the walk (and before it, while its search
 * index reads the 10,000 news). The miss budget is off, as in every rendering row:
 * the row measures what a miss costs, not the budget's pace (the (k2) row does).
 */
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { openContentDb } from "../server/content/db.ts";
import type { SiteFile } from "../server/content/site-file.ts";
import { importSite } from "../server/content/site-io.ts";
import { DEMO_SITE_FILE } from "../server/project-root.ts";
import type { BenchContext } from "./bench-servers.ts";
import { percentile } from "./burst.ts";
import { startCountingUpstream } from "./counting-upstream.ts";
import { cpuMsOf, waitIdle } from "./cpu-time.ts";
import { log } from "./options.ts";
import { type Row, sum } from "./rows.ts";

export const CRAWLED_PAGES = 10_000;
const CRAWL_CONNECTIONS = 32;
/** The server reads the 10,000 news into its search index once started: the walk begins when that is done. */
const STARTUP_IDLE_LIMIT_MS = 600_000;

export interface CrawlFigures {
  pages: number;
  pagesPerS: number;
  cpuMsPerPage: number;
  upstreamPerPage: number;
  /** The walk's peak RSS, and the server's before it (its search index reading the 10,000 news). */
  peakRssMb: number;
  startupPeakRssMb: number;
  statuses: Map<number, number>;
}

/** The demo site with `count` news: its own first, then copies of them under new ids and titles. */
async function siteOfNews(count: number): Promise<SiteFile> {
  const site = JSON.parse(await readFile(DEMO_SITE_FILE, "utf8")) as SiteFile;
  const demo = site.news;
  site.news = Array.from({ length: count }, (_, i) => {
    const model = demo[i % demo.length] as (typeof demo)[number];
    return i < demo.length ? model : { ...model, id: i + 1, title: `${model.title} (${i + 1})` };
  });
  return site;
}

function get(agent: http.Agent, url: string): Promise<{ status: number; ms: number; bytes: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    http
      .get(url, { agent, headers: { "Accept-Encoding": "gzip, deflate, br", "User-Agent": "bench-crawler" } }, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, bytes }));
      })
      .on("error", () => resolve({ status: 0, ms: performance.now() - started, bytes: 0 }));
  });
}

export async function measureCrawlRow({ dir, startBenchServer }: BenchContext): Promise<{ row: Row; figures: CrawlFigures }> {
  log(`(m3) a crawler walking ${CRAWLED_PAGES} news detail pages cold on ${CRAWL_CONNECTIONS} connections`);
  const databaseFile = path.join(dir, "crawled-site.db");
  const content = await openContentDb(`sqlite:${databaseFile}`);
  await importSite(content, await siteOfNews(CRAWLED_PAGES));
  await content.close();
  const upstream = await startCountingUpstream(databaseFile);
  const server = await startBenchServer("m3", { API_BASE_URL: upstream.url, PORTAL_CLASSIFY: upstream.classifyJson, PAGE_CACHE: "on" });
  await waitIdle(server.pid, { quietMs: 1000, limitMs: STARTUP_IDLE_LIMIT_MS });
  upstream.reset();
  const startupPeakRssMb = server.peakRssMb();
  // The walk's own peak: Linux starts the process's VmHWM again from its RSS now.
  writeFileSync(`/proc/${server.pid}/clear_refs`, "5");
  const agent = new http.Agent({ keepAlive: true, maxSockets: CRAWL_CONNECTIONS });
  const statuses = new Map<number, number>();
  const latencies: number[] = [];
  let [next, bytes] = [0, 0];
  const cpuBefore = cpuMsOf(server.pid);
  const started = performance.now();
  const lane = async () => {
    while (next < CRAWLED_PAGES) {
      const answer = await get(agent, `${server.origin}/portal/message/news/${++next}`);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      latencies.push(answer.ms);
      bytes += answer.bytes;
    }
  };
  await Promise.all(Array.from({ length: CRAWL_CONNECTIONS }, lane));
  const wallMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  agent.destroy();
  await waitIdle(server.pid);
  const figures: CrawlFigures = {
    pages: CRAWLED_PAGES,
    pagesPerS: CRAWLED_PAGES / (wallMs / 1000),
    cpuMsPerPage: (cpuMsOf(server.pid) - cpuBefore) / CRAWLED_PAGES,
    upstreamPerPage: sum(upstream.counts()) / CRAWLED_PAGES,
    peakRssMb: server.peakRssMb(),
    startupPeakRssMb,
    statuses,
  };
  await upstream.close();
  const byStatus = [...statuses].map(([status, n]) => `${n} × ${status}`).join(", ");
  const row: Row = {
    id: "m3",
    label: `crawler: ${CRAWLED_PAGES.toLocaleString("en")} news details cold, ${CRAWL_CONNECTIONS} connections`,
    reqPerS: figures.pagesPerS,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    bytes: bytes / CRAWLED_PAGES,
    peakRssMb: figures.peakRssMb,
    cache: `server CPU ${figures.cpuMsPerPage.toFixed(2)} ms/page; peak RSS ${figures.startupPeakRssMb.toFixed(0)} MB before the walk; upstream ${figures.upstreamPerPage.toFixed(2)} requests/page; ${byStatus}`,
    errors: CRAWLED_PAGES - (statuses.get(200) ?? 0),
  };
  return { row, figures };
}
