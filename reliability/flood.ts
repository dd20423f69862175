import path from "node:path";
import { startServer } from "../harness/server-process.ts";
import { errorCount, runWrk, type WrkResult } from "../harness/wrk.ts";
import { logFileOf, type RunContext, round } from "./context.ts";
import {
  BURST,
  budgetPace,
  coldTargets,
  FLOOD_MAX_IN_FLIGHT,
  FLOOD_PER_S,
  floodPace,
  MISS_RATE_PER_MIN,
  startColdClients,
  startMisses,
} from "./flood-clients.ts";
import { Checks, type SectionResult } from "./report.ts";
import { serverEnv } from "./server.ts";
import { exchange, type Outcome, sleep, waitFor } from "./traffic.ts";
import { startControlledUpstream } from "./upstream.ts";

const READERS = 32;
/** Each reader connection waits this long between requests: at most READERS / READER_PAUSE_MS requests a millisecond, a fraction of what one core serves. */
const READER_PAUSE_MS = 10;
const READERS_SCRIPT = path.join(import.meta.dirname, "flood-readers.lua");
const MIN_FLOOD = 1000;
/** Ids no content has: every one a miss, and recognisable in what the upstream receives. */
const FLOOD_ID_BASE = 7_000_000_000_000;
const POLITE_ID_BASE = 8_000_000_000_000;
const P99_FACTOR = 2;
/** Polite and flood runs, taking turns. */
const ROUNDS = 3;

/** The cached pages and answers the readers read (warmed first). */
const READ_PATHS = [
  "/portal/index.html",
  "/portal/about/index.html",
  "/portal/message/news/list.html",
  "/portal/message/news/1",
  "/portal/message/news/2",
  "/portal/product/1",
  "/api/portal/sys/syscfg",
  "/api/portal/message/news/list?pageIndex=0&pageMaxCount=10",
];

const p99Ms = (r: WrkResult) => r.p99Us / 1000;
const round2 = (ms: number) => round(ms, 2);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export async function runFlood(ctx: RunContext): Promise<SectionResult> {
  const checks = new Checks();
  const roundS = ctx.short ? 5 : 10;
  const upstream = await startControlledUpstream(ctx.site, ctx.workDir);
  const logFile = logFileOf(ctx, "flood");
  const server = await startServer({
    name: "flood server",
    logFile,
    cpus: ctx.serverCpus,
    env: serverEnv({
      API_BASE_URL: upstream.url,
      PORTAL_CLASSIFY: upstream.classifyJson,
      MISS_RATE_PER_MIN: String(MISS_RATE_PER_MIN),
      // The readers' pages stay fresh through every run: what they measure is the hot path, in quiet and in flood.
      CACHE_TTL_MS: "600000",
    }),
  });
  try {
    const readers = () =>
      runWrk({
        url: server.origin,
        durationS: roundS,
        connections: READERS,
        requests: READERS_SCRIPT,
        env: { FLOOD_PATHS: READ_PATHS.join(" "), FLOOD_READER_PAUSE_MS: String(READER_PAUSE_MS) },
        cpus: ctx.loadCpus,
      });
    const warmed = await waitFor(async () => {
      const answers = await Promise.all(READ_PATHS.map((p) => exchange(server.origin, { path: p }, false)));
      return answers.every((a) => a.answer?.headers["x-page-cache"] === "HIT" || a.answer?.headers["x-cache"] === "HIT");
    }, 30_000);
    checks.add("every page and answer the readers read is cached", warmed);

    // Polite and flood runs take turns, so a noisy moment of the machine falls on one run of
    // each kind at most and the medians compare like with like.
    const cold = coldTargets({ news: ctx.site.news.map((m) => m.id), notices: ctx.site.notices.map((m) => m.id) }, 2 * ROUNDS);
    const quiet: WrkResult[] = [];
    const loud: WrkResult[] = [];
    const politeOutcomes: Outcome[] = [];
    const floodOutcomes: Outcome[] = [];
    const coldOutcomes: Outcome[] = [];
    let skipped = 0;
    let floodS = 0;
    let floodFirstStart = 0;
    let floodLastEnd = 0;
    upstream.clearRecords();
    upstream.record = true;
    for (let round = 0; round < ROUNDS; round++) {
      // A new polite client each run, with its whole budget: it spends it all, and is never refused.
      const polite = startMisses(server.origin, budgetPace, `127.0.0.${254 - round}`, POLITE_ID_BASE + round * 1_000_000);
      const politeCold = startColdClients(server.origin, cold[2 * round] as string[]);
      quiet.push(await readers());
      await polite.stop();
      await politeCold.stop();
      politeOutcomes.push(...polite.outcomes);
      coldOutcomes.push(...politeCold.outcomes);

      // The same flooding client every time: its bucket refills while it waits, as anyone's would.
      const startedAt = Date.now();
      floodFirstStart ||= startedAt;
      const flood = startMisses(server.origin, floodPace, "127.0.0.2", FLOOD_ID_BASE + round * 1_000_000);
      const floodCold = startColdClients(server.origin, cold[2 * round + 1] as string[]);
      loud.push(await readers());
      floodS += await flood.stop();
      floodLastEnd = Date.now();
      await floodCold.stop();
      floodOutcomes.push(...flood.outcomes);
      coldOutcomes.push(...floodCold.outcomes);
      skipped += flood.skipped();
      ctx.log(
        `  flood: round ${round + 1}/${ROUNDS}: readers' p99 ${round2(p99Ms(quiet[round] as WrkResult))} ms beside a polite client, ${round2(p99Ms(loud[round] as WrkResult))} ms under the flood`,
      );
    }
    upstream.record = false;
    await sleep(100);

    const answered = floodOutcomes.filter((o) => o.answer);
    const statuses = new Map<number, number>();
    for (const o of answered) statuses.set(o.answer?.status as number, (statuses.get(o.answer?.status as number) ?? 0) + 1);
    const refused = answered.filter((o) => o.answer?.status === 429);
    const admitted = answered.length - refused.length;
    // The flooding client's bucket: full at the start, refilled at the budget's rate from its first request to its last.
    const floodSpanS = (floodLastEnd - floodFirstStart) / 1000;
    const allowance = Math.ceil(BURST + (MISS_RATE_PER_MIN / 60) * floodSpanS);
    const isFloodKey = (url: string) => /\/(7\d{12,})(\?|$)|[?&]pid=7\d{12,}/.test(url);
    const upstreamForFlood = upstream.requests.filter((r) => isFloodKey(r.url)).length;
    const readiness = upstream.requests.filter((r) => r.url === "/api/portal/sys/syscfg?imgScope=0").length;
    const statusText = [...statuses].map(([status, count]) => `${count}×${status}`).join(", ");
    const politeRefused = politeOutcomes.filter((o) => o.answer?.status === 429).length;
    const quietP99 = median(quiet.map(p99Ms));
    const loudP99 = median(loud.map(p99Ms));
    const readerErrors = [...quiet, ...loud].reduce((sum, r) => sum + errorCount(r), 0);

    // On a starved machine the server may answer slower than the flood comes: requests past the in-flight bound are not sent (shown).
    checks.add(
      "the flooding client sent thousands of misses, every one answered",
      floodOutcomes.length >= MIN_FLOOD && answered.length === floodOutcomes.length,
      `${floodOutcomes.length} sent in ${round(floodS, 1)} s, ${floodOutcomes.length - answered.length} unanswered, ${skipped} not sent (${FLOOD_MAX_IN_FLIGHT} in flight)`,
    );
    checks.add(
      "the flooding client gets 429 with Retry-After and no-store, never a 5xx",
      refused.length > 0 &&
        refused.every((o) => Number(o.answer?.headers["retry-after"]) >= 1 && o.answer?.headers["cache-control"] === "no-store") &&
        answered.every((o) => (o.answer?.status as number) < 500),
      statusText,
    );
    checks.add(
      `the upstream receives for the flooding client's keys at most its budget (${BURST} + ${MISS_RATE_PER_MIN}/min from its first request to its last)`,
      upstreamForFlood <= allowance && admitted <= allowance + 1,
      `${upstreamForFlood} upstream requests for its keys, ${admitted} requests admitted, budget ${allowance}`,
    );
    checks.add(
      "the readers of cached pages get no error, beside a polite client or under the flood",
      readerErrors === 0 && loud.every((r) => r.requests > 0),
      [...quiet, ...loud].map((r) => JSON.stringify(r.errors)).join(" "),
    );
    checks.add(
      "the polite clients, within their budget, are never refused",
      politeOutcomes.length > 0 && politeRefused === 0,
      `${politeRefused} of ${politeOutcomes.length} refused`,
    );
    checks.add(
      `the cached pages' p99 under the flood is within ${P99_FACTOR}x of the runs beside a client within its budget (medians of ${ROUNDS} runs each)`,
      loudP99 <= P99_FACTOR * quietP99,
      `p99 ${round2(quietP99)} ms beside the polite client, ${round2(loudP99)} ms under the flood`,
    );
    const coldOk = coldOutcomes.filter((o) => o.answer?.status === 200).length;
    checks.add(
      "other clients' cold misses answer 200",
      coldOutcomes.length > 0 && coldOk === coldOutcomes.length,
      coldOutcomes
        .filter((o) => o.answer?.status !== 200)
        .slice(0, 5)
        .map((o) => `${o.spec.path}: ${o.answer?.status ?? o.error}`)
        .join("; "),
    );

    const rate = (runs: WrkResult[]) => Math.round(median(runs.map((r) => r.requests / (r.durationUs / 1e6))));
    const p99s = (runs: WrkResult[]) => runs.map((r) => round2(p99Ms(r))).join(", ");
    return {
      section: "flood",
      headline: `miss flood held: ${floodOutcomes.length} misses from one client in ${round(floodS)} s, ${refused.length} refused (429), ${upstreamForFlood} reached the upstream (budget ${allowance}); cached p99 ${round2(quietP99)} → ${round2(loudP99)} ms`,
      checks: checks.list,
      figures: [
        `flooding client: ${floodOutcomes.length} requests at up to ${FLOOD_PER_S}/s in ${ROUNDS} runs of ${roundS} s (${statusText}; ${skipped} not sent)`,
        `upstream requests for its keys ${upstreamForFlood}, budget ${allowance} (${BURST} + ${MISS_RATE_PER_MIN}/min × ${round(floodSpanS, 1)} s); readiness checks reaching the upstream ${readiness}`,
        `readers (${READERS} connections, cached, ${READER_PAUSE_MS} ms apart): beside a polite client ${rate(quiet)} req/s p99 ${p99s(quiet)} ms, flood ${rate(loud)} req/s p99 ${p99s(loud)} ms`,
        `other clients' cold misses: ${coldOk}/${coldOutcomes.length} answered 200`,
      ],
      logs: [logFile],
    };
  } finally {
    await server.stop();
    await upstream.close();
  }
}
