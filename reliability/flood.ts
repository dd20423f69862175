/**
 * Miss flood: one client (its own loopback address, 127.0.0.2) sends thousands of
 * requests for keys that miss every cache (unknown news pages and API items, reader
 * counts, readiness) at a steady rate, while 32 wrk connections (127.0.0.1) read pages
 * and API answers cached beforehand at a visitor's pace, and other clients (127.0.0.3 and
 * up, one address each) ask now and then for real items nobody asked for before. The
 * server runs with the default miss budget (MISS_RATE_PER_MIN).
 *
 * The yardstick is a run just before with the same readers and cold clients, and in the
 * flooder's place a polite client (127.0.0.254) sending the same kinds of miss and
 * spending its whole budget, burst included, but no more. A miss that is served costs a
 * render and an upstream round trip, and a render holds the event loop, so the readers'
 * p99 is judged against that run, not an idle server: the flood may cost the readers what
 * its budget allows, and its refusals next to nothing.
 *
 * Judged: the flooding client gets 429s (with Retry-After) and never a 5xx; the upstream
 * receives for its keys no more than its budget allows over the flood (the bucket's
 * burst plus the rate over the time); the cached pages' p99 under the flood stays within
 * 2x of the polite run; the readers get no error; and every other client's cold miss
 * answers 200.
 */
import http from "node:http";
import path from "node:path";
import { startServer } from "../harness/server-process.ts";
import { errorCount, runWrk, type WrkResult } from "../harness/wrk.ts";
import { logFileOf, type RunContext, round } from "./context.ts";
import { Checks, type SectionResult } from "./report.ts";
import { serverEnv } from "./server.ts";
import { exchange, type Outcome, sleep, waitFor } from "./traffic.ts";
import { startControlledUpstream } from "./upstream.ts";

const READERS = 32;
/** Each reader connection waits this long between requests: at most READERS / READER_PAUSE_MS requests a millisecond, a fraction of what one core serves. */
const READER_PAUSE_MS = 10;
const READERS_SCRIPT = path.join(import.meta.dirname, "flood-readers.lua");
/** The server's default (config.ts), so the run shows what a deployment gets. */
const MISS_RATE_PER_MIN = 600;
/** The bucket holds a tenth of the minute's budget (server/admission/miss-budget.ts). */
const BURST = MISS_RATE_PER_MIN / 10;
/** The flooding client's requests a second, sent whatever the answers (an open loop), and the most it keeps in flight. */
const FLOOD_PER_S = 300;
const FLOOD_MAX_IN_FLIGHT = 256;
const MIN_FLOOD = 1000;
/** Ids no content has: every one a miss, and recognisable in what the upstream receives. */
const FLOOD_ID_BASE = 7_000_000_000_000;
const POLITE_ID_BASE = 8_000_000_000_000;
const COLD_EVERY_MS = 400;
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

/** The flooding client's n-th request: a rotation of the four kinds of miss. */
function floodPath(idBase: number, n: number): string {
  const id = idBase + n;
  switch (n % 4) {
    case 0:
      return `/portal/message/news/${id}`;
    case 1:
      return `/api/portal/message/news/${id}`;
    case 2:
      return `/api/portal/reader/reader?type=2&pid=${id}`;
    default:
      return "/portal/readyz";
  }
}

const fromAddress = (address: string) => new http.Agent({ keepAlive: true, localAddress: address, maxSockets: FLOOD_MAX_IN_FLIGHT });

/** How many requests are due `ms` after the start. */
type Pace = (ms: number) => number;

/** The flood's pace: FLOOD_PER_S, whatever the answers (an open loop). */
const floodPace: Pace = (ms) => Math.floor((ms * FLOOD_PER_S) / 1000);

/** A client spending its whole budget and no more: its burst at the flood's pace, then the budget's rate. */
const budgetPace: Pace = (ms) => {
  const burstMs = (BURST * 1000) / FLOOD_PER_S;
  return ms < burstMs ? floodPace(ms) : BURST + Math.floor(((ms - burstMs) * MISS_RATE_PER_MIN) / 60_000);
};

/** Sends requests from `address` at `pace` until stopped; each outcome is kept. */
function startMisses(origin: string, pace: Pace, address: string, idBase: number) {
  const agent = fromAddress(address);
  const outcomes: Outcome[] = [];
  const t0 = Date.now();
  let n = 0;
  let inFlight = 0;
  let skipped = 0;
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const due = pace(Date.now() - t0);
    while (n < due) {
      if (inFlight >= FLOOD_MAX_IN_FLIGHT) {
        skipped += due - n;
        n = due;
        break;
      }
      inFlight++;
      const sent = exchange(origin, { path: floodPath(idBase, n++) }, agent, 15_000, t0).then((outcome) => {
        inFlight--;
        outcomes.push(outcome);
      });
      pending.add(sent);
      sent.finally(() => pending.delete(sent));
    }
  }, 10);
  return {
    outcomes,
    skipped: () => skipped,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
      agent.destroy();
      return (Date.now() - t0) / 1000;
    },
  };
}

/** Pages and answers of real items nobody asked for before, in `groups` groups: one for each run, so none is asked for twice. */
function coldTargets(ids: { news: number[]; notices: number[] }, groups: number): string[][] {
  const targets = [
    ...ids.notices.map((id) => `/portal/message/notice/${id}`),
    ...ids.news.filter((id) => id > 2).map((id) => `/api/portal/message/news/${id}`),
  ];
  return Array.from({ length: groups }, (_, g) => targets.filter((_, i) => i % groups === g));
}

/** Other clients, one address each, asking in turn for `targets`. */
function startColdClients(origin: string, targets: string[]) {
  const outcomes: Outcome[] = [];
  let k = 0;
  const pending: Promise<void>[] = [];
  const timer = setInterval(() => {
    const target = targets[k % targets.length] as string;
    const agent = fromAddress(`127.0.0.${3 + (k % 200)}`);
    k++;
    pending.push(
      exchange(origin, { path: target }, agent).then((outcome) => {
        outcomes.push(outcome);
        agent.destroy();
      }),
    );
  }, COLD_EVERY_MS);
  return {
    outcomes,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
    },
  };
}

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
