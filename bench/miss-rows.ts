/**
 * The bench's rows of misses: (f) 200 simultaneous requests for a cold key on a fresh server whose upstream
 * counts, and (m0, m, m2) what a miss costs, stage by stage, one at a time on an idle server.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { freePort } from "../harness/free-port.ts";
import { type BenchContext, rawGet } from "./bench-servers.ts";
import { burst, percentile } from "./burst.ts";
import type { Check } from "./checks.ts";
import { startCountingUpstream } from "./counting-upstream.ts";
import { cpuMsOf, waitIdle } from "./cpu-time.ts";
import { type MissCost, missCost, purgePage } from "./miss-cost.ts";
import {
  BURST_SIZE,
  COLD_API_PATH,
  COLD_PAGE_PATH,
  HOME_MISS_ROUNDS,
  HOME_MISSES,
  HOME_PATH,
  log,
  MISS_WARMUP,
  MISSES,
  wanted,
} from "./options.ts";
import { type Row, sum, sumWhere } from "./rows.ts";

/** (f) and (f2): their rows, and the check of their upstream requests. */
export async function measureBurstRows({ dir, startBenchServer }: BenchContext): Promise<{ rows: Row[]; checks: Check[] }> {
  const rows: Row[] = [];
  const checks: Check[] = [];
  log(`(f) ${BURST_SIZE} concurrent requests on cold keys`);
  const upstream = await startCountingUpstream(path.join(dir, "upstream.db"));
  const fresh = await startBenchServer("f", { API_BASE_URL: upstream.url, PORTAL_CLASSIFY: upstream.classifyJson, PAGE_CACHE: "on" });
  // Each burst starts on an idle server; its CPU is counted until the server is idle again.
  const measuredBurst = async (p: string) => {
    await waitIdle(fresh.pid);
    upstream.reset();
    const cpuBefore = cpuMsOf(fresh.pid);
    const result = await burst(fresh.origin + p, BURST_SIZE);
    const cpuAnswered = cpuMsOf(fresh.pid);
    await waitIdle(fresh.pid);
    const cpuIdle = cpuMsOf(fresh.pid);
    return { result, counts: upstream.counts(), cpuMs: cpuIdle - cpuBefore, cpuAfterMs: cpuIdle - cpuAnswered };
  };
  const pageRun = await measuredBurst(COLD_PAGE_PATH);
  const apiRun = await measuredBurst(COLD_API_PATH);
  const [pageBurst, pageCounts, apiBurst, apiCounts] = [pageRun.result, pageRun.counts, apiRun.result, apiRun.counts];
  const cpuNote = (run: typeof pageRun) =>
    `server CPU ${(run.cpuMs / 1000).toFixed(2)} s, ${(run.cpuAfterMs / 1000).toFixed(2)} s of it after the answers`;
  const freshPeak = fresh.peakRssMb();
  await upstream.close();

  const pageKeyRequests = sumWhere(pageCounts, (url) => {
    const u = new URL(url, "http://x");
    return (
      u.pathname === "/api/portal/message/news/list" &&
      u.searchParams.get("pageIndex") === "1" &&
      u.searchParams.get("pageMaxCount") === "20"
    );
  });
  const apiKeyRequests = sumWhere(apiCounts, () => true);
  const pageMaxPerUrl = Math.max(0, ...pageCounts.values());
  const burstRow = (id: string, label: string, b: typeof pageBurst, upstreamNote: string): Row => ({
    id,
    label,
    reqPerS: BURST_SIZE / (b.wallMs / 1000),
    p50Ms: percentile(b.latenciesMs, 50),
    p99Ms: percentile(b.latenciesMs, 99),
    bytes: b.bytesPerResponse,
    peakRssMb: freshPeak,
    cache: upstreamNote,
    errors: BURST_SIZE - (b.statuses.get(200) ?? 0),
  });
  const [pageRow, apiRow] = [
    burstRow(
      "f",
      `cold news list page, ${BURST_SIZE} at once`,
      pageBurst,
      `upstream: ${pageKeyRequests} for its key, ${sum(pageCounts)} in all; ${cpuNote(pageRun)}`,
    ),
    burstRow("f2", `cold /api/portal key, ${BURST_SIZE} at once`, apiBurst, `upstream: ${apiKeyRequests}; ${cpuNote(apiRun)}`),
  ];
  rows.push(pageRow, apiRow);
  checks.push({
    name: `(f) cold key under ${BURST_SIZE} concurrent requests: exactly 1 upstream request`,
    ok: pageKeyRequests === 1 && pageMaxPerUrl === 1 && apiKeyRequests === 1 && pageRow.errors === 0 && apiRow.errors === 0,
    detail: `page key ${pageKeyRequests} (each of its ${pageCounts.size} upstream URLs at most ${pageMaxPerUrl}), API key ${apiKeyRequests}`,
  });
  return { rows, checks };
}

/** A bench server with its metrics on a port of its own, these paths asked for once so their data is warm. */
async function startMeasuredServer({ startBenchServer }: BenchContext, id: string, env: Record<string, string>, warm: string[]) {
  const metricsPort = await freePort();
  const server = await startBenchServer(id, { ...env, METRICS_PORT: String(metricsPort) });
  for (const p of warm) await rawGet(server.origin + p);
  /** What asking `server` for each path costs, one at a time, in `rounds`; `before` runs ahead of each. */
  const costOf = (paths: string[], rounds: number, before?: (path: string) => Promise<void>) =>
    missCost({ origin: server.origin, metricsOrigin: `http://127.0.0.1:${metricsPort}`, pid: server.pid, paths, rounds, before });
  return { origin: server.origin, costOf };
}

/** As the misses measured are asked for: the warm-up runs the same code. */
const WARMUP_HEADERS = { "Accept-Encoding": "gzip, br" };

/** (m0), (m) and (m2). */
export async function measureMissRows(context: BenchContext): Promise<{ id: string; label: string; cost: MissCost }[]> {
  const missCosts: { id: string; label: string; cost: MissCost }[] = [];
  log(
    `(m) ${HOME_MISSES} renders of the home page unstored, ${HOME_MISSES} stored misses of it, then ${MISSES} of list pages nobody asked for`,
  );
  const homePages = Array.from({ length: HOME_MISSES }, () => HOME_PATH);
  const unstored = await startMeasuredServer(context, "m0", { PAGE_CACHE: "off" }, [HOME_PATH]);
  for (let i = 0; i < MISS_WARMUP; i++) await rawGet(unstored.origin + HOME_PATH, WARMUP_HEADERS);
  missCosts.push({
    id: "m0",
    label: "home page, warm data, not stored (PAGE_CACHE=off)",
    cost: await unstored.costOf(homePages, HOME_MISS_ROUNDS),
  });
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const stored = await startMeasuredServer(context, "m", { PAGE_CACHE: "on", PURGE_SECRET: secret }, [
    HOME_PATH,
    "/portal/message/news/list.html",
  ]);
  for (let i = 0; i < MISS_WARMUP; i++) {
    await purgePage(stored.origin, secret, HOME_PATH);
    await rawGet(stored.origin + HOME_PATH, WARMUP_HEADERS);
  }
  if (wanted("m"))
    missCosts.push({
      id: "m",
      label: "home page, warm data (purged before each)",
      cost: await stored.costOf(homePages, HOME_MISS_ROUNDS, (p) => purgePage(stored.origin, secret, p)),
    });
  if (wanted("m2"))
    missCosts.push({
      id: "m2",
      label: "news list pages nobody asked for (their data cold)",
      cost: await stored.costOf(
        Array.from({ length: MISSES }, (_, i) => `/portal/message/news/list.html?page=${2 + i}&size=1`),
        1,
      ),
    });
  return missCosts;
}
