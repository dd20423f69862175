/**
 * Load: the production server (pinned to its CPU) under wrk (one thread, 64
 * connections, pinned to the other CPU) with the mix of reliability/load.lua, for 5
 * minutes (20 s in the short form) after a 5 s warm-up: a closed loop, so the rate is
 * the server's saturation rate for that mix. Zero errors (no connect, read, write or
 * timeout error, no status of 400 or more), and memory flat over the last two minutes
 * (MEMORY_RULE). Also shown: the share of cacheable answers a cache served, and the rate,
 * p99 and peak RSS against the targets the mix should reach (TARGETS).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { cpuMsOf } from "../bench/cpu-time.ts";
import { startServer } from "../harness/server-process.ts";
import { errorCount, runWrk } from "../harness/wrk.ts";
import { logFileOf, median, type RunContext, round } from "./context.ts";
import { Checks, type SectionResult } from "./report.ts";
import { sampleMemory, serverEnv } from "./server.ts";
import { exchange } from "./traffic.ts";
import { startControlledUpstream } from "./upstream.ts";

const CONNECTIONS = 64;
const WARMUP_S = 5;
const REQUESTS_SCRIPT = path.join(import.meta.dirname, "load.lua");
const FLAT_PCT = 5;
/** Both caches at 16 MB, so the cache misses of the mix fill them within the first minute or so: growth after that is not a cache filling up. */
const CACHE_MAX_MB = 16;
/**
 * What the mix must reach on one core, with its long tail of keys seen once: judged in
 * the full form; in the short form (20 s, most of it the caches filling) shown against
 * each figure, met or missed.
 */
const TARGETS = { reqPerS: 5000, p99Ms: 100, peakRssMb: 200 };
export const MEMORY_RULE = `the Theil–Sen trend of the RSS samples (1/s) rises by less than ${FLAT_PCT}% of their median across the window`;

/**
 * Theil–Sen slope (MB per second): the median of the slopes between every pair of samples.
 * Unlike a least-squares line it is not dragged by the short spikes of a busy heap (a
 * few hundred MB for a second or two), yet follows a steady rise.
 */
export function trendOf(samples: { atMs: number; mb: number }[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < samples.length; i++) {
    for (let j = i + 1; j < samples.length; j++) {
      const a = samples[i] as { atMs: number; mb: number };
      const b = samples[j] as { atMs: number; mb: number };
      if (b.atMs !== a.atMs) slopes.push((b.mb - a.mb) / ((b.atMs - a.atMs) / 1000));
    }
  }
  return slopes.length ? median(slopes) : 0;
}

export async function runLoad(ctx: RunContext, durationS: number): Promise<SectionResult> {
  const checks = new Checks();
  const windowS = ctx.short ? Math.ceil(durationS / 2) : Math.min(120, durationS);
  const upstream = await startControlledUpstream(ctx.site, ctx.workDir);
  const logFile = logFileOf(ctx, "load");
  const server = await startServer({
    name: "load server",
    logFile,
    cpus: ctx.serverCpus,
    env: serverEnv({ API_BASE_URL: upstream.url, PORTAL_CLASSIFY: upstream.classifyJson, CACHE_MAX_MB: String(CACHE_MAX_MB) }),
  });
  try {
    const wrk = (durationS: number) =>
      runWrk({ url: server.origin, durationS, connections: CONNECTIONS, requests: REQUESTS_SCRIPT, cpus: ctx.loadCpus });
    const warm = await wrk(WARMUP_S);
    checks.add("warm-up without errors", errorCount(warm) === 0, JSON.stringify(warm.errors));
    ctx.log(`  load: ${round(warm.requests / (warm.durationUs / 1e6))} req/s in the warm-up; now ${durationS} s`);
    const memoryT0 = Date.now();
    const memory = sampleMemory(server.pid, 1000);
    const cpuBefore = cpuMsOf(server.pid);
    const result = await wrk(durationS);
    // What the mix costs the server a request, whatever else the machine runs: the rate one free core would hold.
    const cpuMsPerRequest = (cpuMsOf(server.pid) - cpuBefore) / Math.max(1, result.requests);
    memory.stop();
    const reqPerS = result.requests / (result.durationUs / 1e6);
    const errors = errorCount(result);
    checks.add(
      "zero errors (connect, read, write, timeout, status ≥ 400)",
      errors === 0 && result.requests > 0,
      `${errors} errors: ${JSON.stringify(result.errors)}`,
    );
    const upstreamBefore = upstream.received();
    const health = await exchange(server.origin, { path: "/portal/healthz" }, false);
    checks.add("the process answers after the load", server.alive() && health.answer?.status === 200, health.error);

    const endMs = Date.now() - memoryT0;
    const window = memory.samples.filter((s) => s.atMs >= endMs - windowS * 1000);
    const windowMedian = median(window.map((s) => s.mb));
    const risePct = ((trendOf(window) * windowS) / windowMedian) * 100;
    const peak = Math.max(...memory.samples.map((s) => s.mb));
    await writeFile(`${logFile}.rss.json`, JSON.stringify(memory.samples));
    // Under a minute, the swings of garbage collection (100 MB and more) drown any trend: shown, not judged.
    if (windowS >= 60) {
      checks.add(
        `memory flat over the last ${windowS} s: ${MEMORY_RULE}`,
        window.length >= windowS * 0.8 && risePct < FLAT_PCT,
        `rise ${round(risePct, 1)}% over ${window.length} samples (median ${round(windowMedian)} MB)`,
      );
    }
    const hitRatio = result.cacheAnswers > 0 ? result.cacheHits / result.cacheAnswers : 0;
    const p99Ms = result.p99Us / 1000;
    if (!ctx.short) {
      checks.add(`at least ${TARGETS.reqPerS.toLocaleString("en")} req/s`, reqPerS >= TARGETS.reqPerS, `${Math.round(reqPerS)} req/s`);
      checks.add(`p99 at most ${TARGETS.p99Ms} ms`, p99Ms <= TARGETS.p99Ms, `p99 ${round(p99Ms, 1)} ms`);
      checks.add(`peak RSS at most ${TARGETS.peakRssMb} MB`, peak <= TARGETS.peakRssMb, `peak ${round(peak)} MB`);
    }
    const against = (met: boolean, target: string) => `(target ${target}: ${met ? "met" : "missed"})`;
    return {
      section: "load",
      headline: `load held: ${Math.round(reqPerS)} req/s for ${round(result.durationUs / 1e6)} s, p99 ${round(p99Ms)} ms, ${round(hitRatio * 100, 1)}% from cache, ${errors} errors, peak RSS ${round(peak)} MB, RSS trend over the last ${windowS} s ${risePct >= 0 ? "+" : ""}${round(risePct, 1)}%`,
      checks: checks.list,
      figures: [
        `${Math.round(reqPerS)} req/s for ${round(result.durationUs / 1e6)} s at ${CONNECTIONS} connections (${result.requests} requests, ${errors} errors) ${against(reqPerS >= TARGETS.reqPerS, `${TARGETS.reqPerS.toLocaleString("en")} req/s`)}`,
        `server CPU ${round(cpuMsPerRequest, 3)} ms a request: ${Math.round(1000 / cpuMsPerRequest)} req/s on one free core`,
        `p50 ${round(result.p50Us / 1000, 1)} ms, p99 ${round(p99Ms, 1)} ms ${against(p99Ms <= TARGETS.p99Ms, `${TARGETS.p99Ms} ms`)}`,
        `${round(hitRatio * 100, 1)}% of the answers with a cache header served from a cache (${result.cacheHits} of ${result.cacheAnswers})`,
        `mix: pages, API, feeds, reader counts, 4% cache misses (${upstreamBefore} upstream requests)`,
        `RSS over the last ${windowS} s: median ${round(windowMedian)} MB, trend ${risePct >= 0 ? "+" : ""}${round(risePct, 1)}%${windowS >= 60 ? "" : " (not judged under 60 s)"}, peak ${round(peak)} MB ${against(peak <= TARGETS.peakRssMb, `${TARGETS.peakRssMb} MB`)}`,
      ],
      logs: [logFile],
    };
  } finally {
    await server.stop();
    await upstream.close();
  }
}
