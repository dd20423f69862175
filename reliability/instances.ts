/**
 * Several instances on one Redis (REDIS_URL): three production server processes, two of
 * them with WEB_CONCURRENCY=2 (five serving processes), one Redis of the run's own and
 * one stand-in upstream. Judged: 300 simultaneous requests for a cold key spread over the
 * three make one upstream request; a signed purge sent to one makes every process serve
 * the new content within a second (the time is shown); 1000 reader PUTs from one client
 * spread over the three are counted once; and Redis killed under load, then started
 * again, costs no visitor an error, and sharing resumes (a cold key is one request again).
 */
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { startRedisServer } from "../harness/redis-server.ts";
import { type ServerProcess, startServer } from "../harness/server-process.ts";
import type { Message } from "../shared/entities.ts";
import { logFileOf, type RunContext } from "./context.ts";
import { Checks, type SectionResult } from "./report.ts";
import { serverEnv } from "./server.ts";
import { exchange, type Outcome, sleep, startLoad, waitFor } from "./traffic.ts";
import { startControlledUpstream } from "./upstream.ts";

const COLD_REQUESTS = 300;
const READER_PUTS = 1000;
const PURGE_WITHIN_MS = 1000;
/** Requests per server that must all show the new content: with a fresh connection each, the primary spreads them over its workers. */
const CONFIRMATIONS = 6;
const VISITOR = "203.0.113.7";

const apiNews = (id: number) => `/api/portal/message/news/${id}`;
const get = (server: ServerProcess, path: string, headers: Record<string, string> = {}) =>
  exchange(server.origin, { path, headers }, false, 15_000);

/** A purge body signed as a CMS signs it (Standard Webhooks). */
function signed(secret: string, body: unknown) {
  const text = JSON.stringify(body);
  const id = `msg_${randomUUID()}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
    .update(`${id}.${timestamp}.${text}`)
    .digest("base64");
  const headers = {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1,${signature}`,
  };
  return { headers, body: text };
}

const titleIn = (outcome: Outcome) => {
  try {
    return (JSON.parse(outcome.answer?.body ?? "") as { data?: { title?: string } }).data?.title;
  } catch {
    return undefined;
  }
};

export async function runInstances(ctx: RunContext): Promise<SectionResult> {
  const checks = new Checks();
  const figures: string[] = [];
  const [edited, cold, coldAfter, counted] = ctx.site.news as [Message, Message, Message, Message];
  let editedTitle: string | undefined;
  const upstream = await startControlledUpstream(ctx.site, ctx.workDir, {
    // The CMS publishing an edit: the item's title changes from then on.
    reshape: (data) =>
      editedTitle && typeof data === "object" && data !== null && (data as Message).id === edited.id
        ? { ...data, title: editedTitle }
        : data,
  });
  const redis = await startRedisServer();
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const env = (workers: number) =>
    serverEnv({
      API_BASE_URL: upstream.url,
      PORTAL_CLASSIFY: upstream.classifyJson,
      REDIS_URL: redis.url,
      PURGE_SECRET: secret,
      TRUST_PROXY: "loopback",
      READER_RATE_PER_MIN: "100000",
      // Kept past the run: what changes the content here is the purge, not the TTL.
      CACHE_TTL_MS: "600000",
      WEB_CONCURRENCY: String(workers),
    });
  const servers: ServerProcess[] = [];
  try {
    for (const [i, workers] of [1, 2, 2].entries()) {
      const name = `instance ${i + 1}`;
      servers.push(await startServer({ name, logFile: logFileOf(ctx, `instances-${i + 1}`), cpus: ctx.serverCpus, env: env(workers) }));
    }
    const spread = (i: number) => servers[i % servers.length] as ServerProcess;
    upstream.record = true;

    // A cold key, asked for by every process at once.
    upstream.clearRecords();
    const coldAnswers = await Promise.all(Array.from({ length: COLD_REQUESTS }, (_, i) => get(spread(i), apiNews(cold.id))));
    const coldUpstream = upstream.requests.filter((r) => r.url.startsWith(apiNews(cold.id))).length;
    checks.add(
      `${COLD_REQUESTS} simultaneous requests for a cold key over 3 instances (5 processes) make 1 upstream request`,
      coldUpstream === 1 && coldAnswers.every((o) => o.answer?.status === 200),
      `${coldUpstream} upstream requests; answers ${[...new Set(coldAnswers.map((o) => o.answer?.status ?? o.error))].join(", ")}`,
    );
    figures.push(`cold key: ${COLD_REQUESTS} requests over 3 instances (5 processes), ${coldUpstream} upstream request`);

    // A signed purge to one instance; every process must then serve the edit.
    for (let i = 0; i < servers.length * CONFIRMATIONS; i++) await get(spread(i), apiNews(edited.id));
    editedTitle = `${edited.title} (edited ${Date.now()})`;
    const purge = signed(secret, { tags: [`news:${edited.id}`] });
    const purgedAt = Date.now();
    const accepted = await exchange(servers[0]?.origin ?? "", { method: "POST", path: "/portal/_purge", ...purge }, false);
    const everywhere = await waitFor(
      async () => {
        const round = await Promise.all(
          Array.from({ length: servers.length * CONFIRMATIONS }, (_, i) => get(spread(i), apiNews(edited.id))),
        );
        return round.every((o) => titleIn(o) === editedTitle);
      },
      10_000,
      20,
    );
    const propagationMs = Date.now() - purgedAt;
    checks.add(
      `a signed purge sent to one instance makes every process serve the new content within ${PURGE_WITHIN_MS / 1000} s`,
      accepted.answer?.status === 202 && everywhere && propagationMs <= PURGE_WITHIN_MS,
      `purge answered ${accepted.answer?.status ?? accepted.error}; all ${servers.length} instances showed the edit ${everywhere ? `after ${propagationMs} ms` : "never (10 s)"}`,
    );
    figures.push(`purge: every process served the edit ${propagationMs} ms after the purge was sent`);

    // One visitor's reader updates, spread over every instance.
    upstream.clearRecords();
    const readerPath = `/api/portal/reader/reader?type=2&pid=${counted.id}`;
    const countOf = async () =>
      Number((JSON.parse((await get(servers[0] as ServerProcess, readerPath)).answer?.body ?? "{}") as { data?: number }).data);
    const before = await countOf();
    const puts = await Promise.all(
      Array.from({ length: READER_PUTS }, (_, i) =>
        exchange(
          spread(i).origin,
          {
            method: "PUT",
            path: "/api/portal/reader/reader",
            headers: { "content-type": "application/json", "x-forwarded-for": VISITOR },
            body: JSON.stringify({ type: 2, pid: counted.id }),
          },
          false,
        ),
      ),
    );
    const forwarded = upstream.requests.filter((r) => r.method === "PUT").length;
    const after = await countOf();
    checks.add(
      `${READER_PUTS} reader PUTs from one client over 3 instances count once`,
      forwarded === 1 && after === before + 1 && puts.every((o) => o.answer?.status === 200),
      `${forwarded} reached the upstream; count ${before} → ${after}; answers ${[...new Set(puts.map((o) => o.answer?.status ?? o.error))].join(", ")}`,
    );
    figures.push(`reader PUTs: ${READER_PUTS} from one client, ${forwarded} counted (count ${before} → ${after})`);

    // Redis killed under load, then started again.
    const outcomes: Outcome[] = [];
    const readPaths = ["/portal/index.html", apiNews(edited.id), apiNews(cold.id), "/api/portal/sys/syscfg", readerPath];
    const loads = servers.map((server) =>
      startLoad({
        origin: server.origin,
        connections: 4,
        next: (n) => ({ path: readPaths[n % readPaths.length] as string }),
        onOutcome: (o) => outcomes.push(o),
      }),
    );
    await sleep(ctx.short ? 1000 : 3000);
    await redis.stop();
    await sleep(ctx.short ? 2000 : 5000);
    await redis.start();
    const resumed = await waitFor(async () => {
      const ready = await Promise.all(Array.from({ length: servers.length * CONFIRMATIONS }, (_, i) => get(spread(i), "/portal/readyz")));
      return ready.every((o) => o.answer?.status === 200 && /"status":"ready"/.test(o.answer.body));
    }, 15_000);
    await Promise.all(loads.map((load) => load.stop()));
    const failed = outcomes.filter((o) => o.error || (o.answer?.status ?? 0) >= 400);
    upstream.clearRecords();
    const again = await Promise.all(Array.from({ length: COLD_REQUESTS }, (_, i) => get(spread(i), apiNews(coldAfter.id))));
    const againUpstream = upstream.requests.filter((r) => r.url.startsWith(apiNews(coldAfter.id))).length;
    checks.add(
      "Redis killed under load and started again: no request fails, every process is ready again, and a cold key is 1 upstream request again",
      failed.length === 0 && outcomes.length > 0 && resumed && againUpstream === 1 && again.every((o) => o.answer?.status === 200),
      `${outcomes.length} requests under load, ${failed.length} failed${
        failed.length
          ? ` (${failed
              .slice(0, 3)
              .map((o) => `${o.spec.path}: ${o.answer?.status ?? o.error}`)
              .join("; ")})`
          : ""
      }; ready again: ${resumed}; cold key after: ${againUpstream} upstream request`,
    );
    figures.push(
      `Redis down under load: ${outcomes.length} requests, ${failed.length} failed; cold key after it was back: ${againUpstream} upstream request`,
    );

    return {
      section: "instances",
      headline: `3 instances (5 processes) on one Redis: cold key ${coldUpstream} upstream request, purge everywhere in ${propagationMs} ms, ${forwarded} of ${READER_PUTS} reader PUTs counted, ${failed.length} errors with Redis down`,
      checks: checks.list,
      figures,
      logs: servers.map((s) => s.logFile),
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await redis.stop();
    await upstream.close();
  }
}
