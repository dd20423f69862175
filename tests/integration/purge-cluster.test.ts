/**
 * WEB_CONCURRENCY=2, real worker processes on one port: a purge sent to the port lands on
 * one worker, and the primary relays it to the other, so both serve the new content and
 * both refuse its webhook id again.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { newPurgeSecret, signedPurge } from "../support/purge-request.ts";
import { type ServerProcess, startServerProcess } from "../support/server-process.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const NEWS_UPSTREAM = "/api/portal/message/news/12";
const SECRET = newPurgeSecret();

/** A request on a new connection each time, so the primary hands each one to the next worker. */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? "GET", agent: false, headers: { connection: "close", ...options.headers } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

let probes = 0;

/** The worker that answered a health check on a new connection, by the pid on its access line. */
async function answeringPid(server: ServerProcess): Promise<number> {
  const requestId = `purge-probe-${++probes}`;
  expect((await send(`${server.origin}/portal/healthz`, { headers: { "x-request-id": requestId } })).status).toBe(200);
  let pid: number | undefined;
  await vi.waitFor(
    () => {
      pid = server.logs
        .map((line) => JSON.parse(line) as { msg?: string; reqId?: string; pid?: number })
        .find((entry) => entry.msg === "request" && entry.reqId === requestId)?.pid;
      expect(pid).toBeDefined();
    },
    { timeout: 5000, interval: 20 },
  );
  return pid as number;
}

const titleOf = (body: string) => (JSON.parse(body) as { data: { title: string } }).data.title;

let reads = 0;

/** The news item, asked for as a visitor asks, under a request id of its own that the worker passes on upstream. */
async function newsTitle(server: ServerProcess): Promise<string> {
  return titleOf((await send(`${server.origin}${NEWS_UPSTREAM}`, { headers: { "x-request-id": `purge-read-${++reads}` } })).body);
}

/**
 * The upstream reads of the item a worker made to answer visitors. The process keeping the search index also reads a
 * purged item again, on its own and uncached, a moment after the purge: that read is not a cache's refetch, and
 * whether it lands before the count is read depends on the machine's load.
 */
function visitorReads(upstream: StandInUpstream): number {
  return upstream.requests.filter((r) => r.url.split("?")[0] === NEWS_UPSTREAM && r.requestId?.startsWith("purge-read-")).length;
}

describe("purge fan-out across a cluster's workers", () => {
  let upstream: StandInUpstream;
  let server: ServerProcess;

  beforeAll(async () => {
    upstream = await startStandInUpstream({ [NEWS_UPSTREAM]: { id: 12, title: "First title" } });
    server = await startServerProcess({
      WEB_CONCURRENCY: "2",
      API_BASE_URL: upstream.url,
      CACHE_TTL_MS: "600000",
      PURGE_SECRET: SECRET,
      LOG_LEVEL: "info",
    });
    await vi.waitFor(() => expect(server.logs.some((line) => line.includes('"all workers listening"'))).toBe(true), {
      timeout: 30_000,
      interval: 100,
    });
  }, 60_000);

  afterAll(async () => {
    if (server.child.exitCode === null) await server.stop();
    await upstream.close();
  });

  it("reaches both workers: each fetches the purged answer once more and serves the new content", async () => {
    const pids = new Set<number>();
    for (let i = 0; i < 6; i++) pids.add(await answeringPid(server));
    expect(pids.size).toBe(2);
    // Both workers hold the answer: one upstream request each, then hits.
    for (let i = 0; i < 6; i++) expect(await newsTitle(server)).toBe("First title");
    expect(visitorReads(upstream)).toBe(2);

    upstream.routes.set(NEWS_UPSTREAM, { id: 12, title: "Second title" });
    const signed = signedPurge(SECRET, { tags: ["news:12"], mode: "hard" });
    const purged = await send(`${server.origin}/portal/_purge`, { method: "POST", headers: signed.headers, body: signed.body });
    expect(purged.status).toBe(202);

    // The relay is a message away: wait until a run of requests, spread over both workers, all show the new content.
    await vi.waitFor(
      async () => {
        const titles = await Promise.all(Array.from({ length: 4 }, () => newsTitle(server)));
        expect(titles).toEqual(Array(4).fill("Second title"));
      },
      { timeout: 10_000, interval: 50 },
    );
    // One refetch per worker, no more.
    expect(visitorReads(upstream)).toBe(4);
    // The webhook id came along: sent again, to either worker, it is a replay.
    for (let i = 0; i < 2; i++) {
      expect((await send(`${server.origin}/portal/_purge`, { method: "POST", headers: signed.headers, body: signed.body })).status).toBe(
        409,
      );
    }
  }, 30_000);
});
