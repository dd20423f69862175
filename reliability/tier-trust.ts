/**
 * What instances read back from Redis (REDIS_URL) is input: two production servers, one
 * with WEB_CONCURRENCY=2 (three serving processes), on one Redis of the run's own and one
 * stand-in upstream, under load for 8 s (30 s in the full form; CACHE_TTL_MS=300, so every
 * process reads the tier again and again), while a writer of the run's own fills the tier with what no instance wrote:
 * raw HTML details, a forged home script, a status of "abc" or 500, truncated entries,
 * garbage, entries over the size bound, headers of the wrong types, hashes where strings
 * belong, a miss budget count that is not a number, and messages on the purge channel that
 * are not purges. Judged: no process exits, no answer holds anything the writer wrote, no
 * answer is an error, each process logs the foreign entries once, sharing stays on, and a
 * cold key is still one upstream request.
 */
import { readFileSync } from "node:fs";
import { Redis } from "ioredis";
import { startRedisServer } from "../harness/redis-server.ts";
import { type ServerProcess, startServer } from "../harness/server-process.ts";
import { scriptHashOf } from "../server/http/security-headers.ts";
import { siteIdOf } from "../server/redis/redis-connection.ts";
import { homeScriptSource } from "../shared/home-script.ts";
import { logFileOf, type RunContext } from "./context.ts";
import { Checks, type SectionResult } from "./report.ts";
import { serverEnv } from "./server.ts";
import { exchange, type Outcome, sleep, startLoad, waitFor } from "./traffic.ts";
import { startControlledUpstream } from "./upstream.ts";

/** In every value the writer puts in the tier: no answer may hold it. */
const MARK = "hostile-tier";
const HOSTILE_HTML =
  `<meta http-equiv="refresh" content="0;url=https://evil.example/${MARK}"><form action="https://evil.example/${MARK}">` +
  `<button>go</button></form><iframe src="https://evil.example/${MARK}"></iframe><p>${MARK}</p>`;
const FORGED_SCRIPT = `window.__xss='${MARK}'`;
const FORGED_HASH = scriptHashOf(homeScriptSource(FORGED_SCRIPT));
const COLD_REQUESTS = 100;
const CONNECTIONS = 4;
/** The instance's log line for a foreign entry, once per process. */
const FOREIGN_ENTRY = /^a shared cache entry read from Redis is not as this server writes it/;
/** Why sharing may pause that is not the values' doing: a late answer, or the connection. */
const DEADLINE_OR_CONNECTION = /^no answer within|^connection closed|ECONN|ETIMEDOUT|Connection is closed/;

const envelope = (data: unknown, code = 0) => JSON.stringify({ code, msg: "", data });

/** An entry as an instance lays one out, fresh for a minute, with this header and body. */
function entryOf(body: string | Buffer, header: Record<string, unknown> = {}): Buffer {
  const madeAt = Date.now();
  const fields = { madeAt, freshForMs: 60_000, meta: { status: 200, etag: `"${MARK}"` }, ...header };
  return Buffer.concat([Buffer.from(`${String(madeAt + 60_000).padStart(15, "0")}${JSON.stringify(fields)}\n`), Buffer.from(body)]);
}

/** The hostile values, by kind: each writes one into the key of `apiKey` (a call path under /api/portal). */
function hostileWrites(redis: Redis, keyOf: (apiKey: string) => string) {
  const news = (id: number) => ({ id, title: MARK, brief: MARK, img: "", dateTime: "20240101000000", detail: HOSTILE_HTML });
  const idOf = (apiKey: string) => Number(/(\d+)$/.exec(apiKey)?.[1] ?? 1);
  const dataOf = (apiKey: string) => (apiKey === "/sys/indexhtml" ? { html: HOSTILE_HTML } : news(idOf(apiKey)));
  const kinds: [string, (apiKey: string) => Promise<unknown>][] = [
    ["raw HTML", (k) => redis.set(keyOf(k), entryOf(envelope(dataOf(k))))],
    ["a forged home script", () => redis.set(keyOf("/sys/indexhtml"), entryOf(envelope({ html: `useEval|${FORGED_SCRIPT}` })))],
    ['status "abc"', (k) => redis.set(keyOf(k), entryOf(envelope(dataOf(k)), { meta: { status: "abc", etag: MARK } }))],
    ["status 500", (k) => redis.set(keyOf(k), entryOf(envelope(dataOf(k)), { meta: { status: 500, etag: MARK } }))],
    ["truncated", (k) => redis.set(keyOf(k), entryOf(envelope(dataOf(k))).subarray(0, 80))],
    ["garbage", (k) => redis.set(keyOf(k), Buffer.from(`\u0000\uffff${MARK} not an entry`))],
    ["wrong types", (k) => redis.set(keyOf(k), entryOf(envelope(dataOf(k)), { madeAt: MARK, meta: [MARK] }))],
    ["a hash", (k) => redis.multi().del(keyOf(k)).hset(keyOf(k), "status", "abc", "body", MARK).exec()],
  ];
  return kinds;
}

export async function runTierTrust(ctx: RunContext): Promise<SectionResult> {
  const checks = new Checks();
  const figures: string[] = [];
  const upstream = await startControlledUpstream(ctx.site, ctx.workDir);
  const redis = await startRedisServer();
  const writer = new Redis(redis.url);
  const site = siteIdOf(upstream.url);
  const keyOf = (apiKey: string) => `portal:v1:${site}:cache:api:${apiKey}`;
  const news = ctx.site.news.slice(0, 4).map((item) => item.id);
  const cold = ctx.site.news[ctx.site.news.length - 1]?.id ?? 1;
  const apiKeys = [...news.map((id) => `/message/news/${id}`), "/sys/indexhtml", "/sys/syscfg"];
  const paths = [
    ...apiKeys.map((k) => `/api/portal${k}`),
    "/portal/index.html",
    ...news.slice(0, 2).map((id) => `/portal/message/news/${id}`),
  ];
  const env = (workers: number) =>
    serverEnv({
      API_BASE_URL: upstream.url,
      PORTAL_CLASSIFY: upstream.classifyJson,
      REDIS_URL: redis.url,
      TRUST_PROXY: "loopback",
      // Local entries go stale at once, so each process asks the tier again and again.
      CACHE_TTL_MS: "300",
      // Except the cold key judged at the end: its waiters must find the first load's answer still fresh, however busy the core.
      CACHE_TTL_OVERRIDES: `/message/news/${cold}=600000`,
      // A budget nobody reaches, so the shared count is read (and found garbage) on every miss.
      MISS_RATE_PER_MIN: "1000000",
      WEB_CONCURRENCY: String(workers),
    });
  const servers: ServerProcess[] = [];
  let writing = true;
  try {
    for (const [i, workers] of [1, 2].entries()) {
      servers.push(
        await startServer({
          name: `instance ${i + 1}`,
          logFile: logFileOf(ctx, `trust-${i + 1}`),
          cpus: ctx.serverCpus,
          env: env(workers),
        }),
      );
    }
    const processes = 3;
    const kinds = hostileWrites(writer, keyOf);
    const written = new Map<string, number>();
    const count = (kind: string) => written.set(kind, (written.get(kind) ?? 0) + 1);
    // The writer: one hostile value after another, on every key the load reads.
    const writes = (async () => {
      for (let n = 0; writing; n++) {
        const [kind, write] = kinds[n % kinds.length] as (typeof kinds)[number];
        await write(apiKeys[n % apiKeys.length] as string);
        count(kind);
        if (n % 40 === 0) {
          await writer.set(keyOf(apiKeys[n % apiKeys.length] as string), entryOf(envelope({ html: MARK.repeat(200_000) })));
          count("over 2 MB");
        }
        if (n % 10 === 0) {
          // The load's client count, under whatever keyed hash the instances name it by.
          for (const countKey of await writer.keys(`portal:v1:${site}:limit:miss:*`)) {
            await writer.set(countKey, MARK);
            count("a count that is not a number");
          }
          await writer.publish(
            `portal:v1:${site}:channel:purge`,
            n % 20 === 0 ? MARK : JSON.stringify({ from: MARK, request: { all: true, tags: [MARK] } }),
          );
          count("a purge message that is not a purge");
        }
        await sleep(5);
      }
    })();

    let requests = 0;
    const failed: Outcome[] = [];
    const carrying: string[] = [];
    const received = upstream.received();
    const loads = servers.map((server) =>
      startLoad({
        origin: server.origin,
        connections: CONNECTIONS,
        next: (n) => ({ path: paths[n % paths.length] as string }),
        onOutcome: (o) => {
          requests++;
          if (o.error || (o.answer?.status ?? 0) >= 400) failed.push(o);
          const csp = String(o.answer?.headers["content-security-policy"] ?? "");
          if (o.answer && (o.answer.body.includes(MARK) || csp.includes(FORGED_HASH))) carrying.push(o.spec.path);
        },
      }),
    );
    await sleep(ctx.short ? 8000 : 30_000);
    await Promise.all(loads.map((load) => load.stop()));
    writing = false;
    await writes;
    const misses = upstream.received() - received;
    const hostileWritten = [...written.values()].reduce((a, b) => a + b, 0);

    const exited = servers.filter((s) => !s.alive()).map((s) => s.name);
    const logs = servers.map((s) => logLines(s.logFile));
    const workerExits = logs.flat().filter((line) => line.msg === "worker exited unexpectedly; restarting").length;
    checks.add(
      `no process exits while ${hostileWritten} hostile values are written into the tier under load`,
      exited.length === 0 && workerExits === 0,
      `${exited.length ? `exited: ${exited.join(", ")}; ` : ""}${workerExits} worker exits`,
    );
    checks.add(
      "no answer holds anything written into the tier (no raw HTML, text or forged script hash)",
      carrying.length === 0 && requests > 0,
      `${carrying.length} of ${requests} answers did${carrying.length ? ` (${[...new Set(carrying)].slice(0, 3).join(", ")})` : ""}`,
    );
    checks.add(
      "no answer is an error: what the tier held is a miss answered from the upstream",
      failed.length === 0 && requests > 0,
      `${requests} requests, ${failed.length} failed${
        failed.length
          ? ` (${failed
              .slice(0, 3)
              .map((o) => `${o.spec.path}: ${o.answer?.status ?? o.error}`)
              .join("; ")})`
          : ""
      }; ${misses} upstream requests`,
    );
    const foreign = logs.map((lines) => lines.filter((line) => FOREIGN_ENTRY.test(line.msg ?? "")).length);
    // A busy core can make Redis miss its deadline (sharing pauses a second); an error reply would be the values' doing.
    const outages = logs.flat().filter((line) => /^Redis unavailable/.test(line.msg ?? ""));
    const blamed = outages.filter((line) => !DEADLINE_OR_CONNECTION.test(line.err ?? ""));
    checks.add(
      "each process logs the foreign entries once, and none takes them for Redis failing",
      foreign.every((n) => n >= 1) && foreign.reduce((a, b) => a + b, 0) <= processes && blamed.length === 0,
      `foreign-entry lines per instance: ${foreign.join(", ")} (${processes} processes); sharing turned off by an error reply: ${blamed.length}${
        blamed.length ? ` (${blamed[0]?.err})` : ""
      }, by a missed deadline: ${outages.length - blamed.length}`,
    );

    // The tier still shares: a cold key asked for by every process at once is one upstream request.
    upstream.record = true;
    upstream.clearRecords();
    const coldPath = `/api/portal/message/news/${cold}`;
    const ready = await waitFor(async () => {
      const answers = await Promise.all(servers.map((s) => exchange(s.origin, { path: "/portal/readyz" }, false)));
      return answers.every((o) => o.answer?.status === 200 && /"sharedTier":"connected"/.test(o.answer.body));
    }, 5000);
    const coldAnswers = await Promise.all(
      Array.from({ length: COLD_REQUESTS }, (_, i) =>
        exchange((servers[i % servers.length] as ServerProcess).origin, { path: coldPath }, false),
      ),
    );
    const coldUpstream = upstream.requests.filter((r) => r.url.startsWith(coldPath)).length;
    checks.add(
      `sharing stays on: ${COLD_REQUESTS} simultaneous requests for a cold key over both instances make 1 upstream request`,
      ready && coldUpstream === 1 && coldAnswers.every((o) => o.answer?.status === 200),
      `ready and connected: ${ready}; ${coldUpstream} upstream requests`,
    );

    figures.push(`${hostileWritten} hostile values written: ${[...written].map(([kind, n]) => `${kind} ${n}`).join("; ")}`);
    figures.push(
      `${requests} requests over 3 processes: ${failed.length} failed, ${carrying.length} carrying them; ${misses} upstream requests`,
    );
    figures.push(
      `sharing paused by a missed deadline (a busy core): ${outages.length - blamed.length} times, by an error reply: ${blamed.length}`,
    );
    figures.push(`cold key after: ${coldUpstream} upstream request`);
    return {
      section: "trust",
      headline: `${hostileWritten} hostile values in the shared tier under ${requests} requests: ${exited.length + workerExits} processes lost, ${carrying.length} answers carrying them, ${failed.length} errors`,
      checks: checks.list,
      figures,
      logs: servers.map((s) => s.logFile),
    };
  } finally {
    writing = false;
    await Promise.all(servers.map((s) => s.stop()));
    writer.disconnect();
    await redis.stop();
    await upstream.close();
  }
}

function logLines(file: string): { msg?: string; err?: string }[] {
  const lines: { msg?: string; err?: string }[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      lines.push(JSON.parse(line) as { msg?: string; err?: string });
    } catch {}
  }
  return lines;
}
