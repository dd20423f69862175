/**
 * WEB_CONCURRENCY on the embedded database: the real process forks worker processes that
 * share one port, each answering with the whole site; a worker that dies is replaced;
 * SIGTERM stops them all.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { countLogs, entries, getOnNewConnection, lineOf } from "../support/cluster-requests.ts";
import { type ServerProcess, startServerProcess } from "../support/server-process.ts";

let probes = 0;

/** The worker that answered a health check, by its access line. */
async function healthPid(server: ServerProcess): Promise<number> {
  const res = await getOnNewConnection(`${server.origin}/portal/healthz`, { "x-request-id": `probe-${++probes}` });
  expect(res.status).toBe(200);
  return (await lineOf(server, "request", res.requestId)).pid as number;
}

/** The pids that answer a run of health checks on fresh connections. */
async function answeringPids(server: ServerProcess, requests = 12): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < requests; i++) pids.add(await healthPid(server));
  return pids;
}

/** A metric's value in Prometheus text, by its name and labels as written. */
function metricValue(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? Number.NaN : Number(line.slice(series.length + 1));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("WEB_CONCURRENCY=2 on the embedded database", () => {
  let dir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-cluster-"));
    server = await startServerProcess({
      WEB_CONCURRENCY: "2",
      DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
      // The embedded content API's own request lines are at debug.
      LOG_LEVEL: "debug",
      METRICS_PORT: "0",
    });
    await vi.waitFor(() => expect(countLogs(server, "all workers listening")).toBe(1), { timeout: 30_000, interval: 100 });
  }, 60_000);

  afterAll(async () => {
    if (server.child.exitCode === null) await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("loads the demo site once, then two workers answer on the one port", async () => {
    expect(countLogs(server, "loaded the demo site into an empty database")).toBe(1);
    const pids = await answeringPids(server);
    expect(pids.size).toBe(2);
    for (const pid of pids) expect(pid).not.toBe(server.child.pid);
    // Each worker serves the content and the pages.
    for (let i = 0; i < 4; i++) {
      const api = await getOnNewConnection(`${server.origin}/api/portal/sys/sysauthor`);
      expect(api.status).toBe(200);
      expect(JSON.parse(api.body).data.fname).toMatch(/有限公司$/);
      const page = await getOnNewConnection(`${server.origin}/portal/index.html`);
      expect(page.status).toBe(200);
      expect(page.body).toContain("青禾数智");
    }
  });

  it("shows no process, cache or upstream figures on the public health endpoints", async () => {
    const health = await getOnNewConnection(`${server.origin}/portal/healthz`);
    expect(JSON.parse(health.body)).toEqual({ status: "ok" });
    const ready = await getOnNewConnection(`${server.origin}/portal/readyz`);
    expect(JSON.parse(ready.body)).toEqual({ status: "ready", upstream: { reachable: true }, database: "open" });
  });

  it("writes an access line with the worker, the client, the answer and the user agent, and the same request id reaches the content API", async () => {
    const res = await getOnNewConnection(`${server.origin}/api/portal/sys/syscfg?imgScope=1`, { "user-agent": "probe/1.0" });
    expect(res.status).toBe(200);
    const access = await lineOf(server, "request", res.requestId);
    expect(access).toMatchObject({
      level: "info",
      client: "127.0.0.1",
      method: "GET",
      url: "/api/portal/sys/syscfg?imgScope=1",
      status: 200,
      cache: "MISS",
      ua: "probe/1.0",
    });
    expect(access.pid).not.toBe(entries(server).find((e) => e.msg === "starting workers")?.pid);
    expect(access.bytes).toBeGreaterThan(res.body.length);
    expect(access.ms).toEqual(expect.any(Number));
    // The embedded content API, in the same worker, logged the request it was sent under the same id.
    const upstreamLine = await lineOf(server, "content api request", res.requestId);
    expect(upstreamLine).toMatchObject({ pid: access.pid, url: "/api/portal/sys/syscfg?imgScope=1", status: 200 });
  });

  it("serves /metrics on the internal listener, on loopback, summed across both workers", async () => {
    const internal = entries(server).find((e) => e.msg === "internal listener");
    const primaryPid = entries(server).find((e) => e.msg === "starting workers")?.pid;
    expect(internal).toMatchObject({ host: "127.0.0.1", pid: primaryPid });
    const metricsUrl = `http://127.0.0.1:${internal?.port}/metrics`;
    const scrape = async () => (await getOnNewConnection(metricsUrl)).body;
    const health = 'portal_http_request_duration_seconds_count{kind="other",status_class="2xx"}';
    const api = 'portal_http_request_duration_seconds_count{kind="api",status_class="2xx"}';
    const first = await scrape();
    const [healthBefore, apiBefore] = [metricValue(first, health) || 0, metricValue(first, api) || 0];
    // Ten health checks, each with its access line: both workers answered some of them...
    const pids = new Set<number>();
    for (let i = 0; i < 10; i++) pids.add(await healthPid(server));
    expect(pids.size).toBe(2);
    // ...and ten API calls, cache hits (answered unlogged) but for at most one miss per worker.
    for (let i = 0; i < 10; i++) expect((await getOnNewConnection(`${server.origin}/api/portal/sys/sysauthor`)).status).toBe(200);
    // One scrape counts all of them.
    const text = await scrape();
    expect(metricValue(text, health) - healthBefore).toBe(10);
    expect(metricValue(text, api) - apiBefore).toBe(10);
    expect(metricValue(text, 'portal_cache_hits_total{cache="api"}')).toBeGreaterThanOrEqual(8);
    expect(metricValue(text, 'portal_upstream_requests_total{call="sysauthor",outcome="2xx"}')).toBeGreaterThanOrEqual(1);
    expect(metricValue(text, 'portal_cache_max_bytes{cache="api"}')).toBe(2 * 64 * 1024 * 1024);
    expect(text).toContain("process_resident_memory_bytes");
    expect(text).toContain("portal_miss_budget_refusals_total 0");
    const internalHealth = JSON.parse((await getOnNewConnection(`http://127.0.0.1:${internal?.port}/healthz`)).body);
    expect(internalHealth).toMatchObject({ status: "ok", pid: primaryPid, workers: 2 });
    expect((await getOnNewConnection(`http://127.0.0.1:${internal?.port}/readyz`)).status).toBe(200);
  });

  it("lists on the primary's /not-found the missing pages both workers counted, added together", async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => getOnNewConnection(`${server.origin}/old/cluster.html?i=${i}`)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(302));
    // Both workers answered some of them.
    await vi.waitFor(
      () => {
        const lines = entries(server).filter((e) => e.msg === "request" && (e as { url?: string }).url?.startsWith("/old/cluster.html"));
        expect(lines).toHaveLength(6);
        expect(new Set(lines.map((line) => line.pid)).size).toBe(2);
      },
      { timeout: 5000, interval: 20 },
    );
    const internal = entries(server).find((e) => e.msg === "internal listener");
    const listed = JSON.parse((await getOnNewConnection(`http://127.0.0.1:${internal?.port}/not-found`)).body) as {
      path: string;
      count: number;
    }[];
    expect(listed.find((page) => page.path === "/old/cluster.html")?.count).toBe(6);
  });

  it("replaces a worker that dies", async () => {
    const before = await answeringPids(server);
    const [victim] = [...before];
    process.kill(victim as number, "SIGKILL");
    await vi.waitFor(() => expect(countLogs(server, "worker exited unexpectedly; restarting")).toBe(1), { timeout: 10_000, interval: 50 });
    await vi.waitFor(() => expect(countLogs(server, "all workers listening")).toBe(2), { timeout: 30_000, interval: 100 });
    const after = await answeringPids(server);
    expect(after.size).toBe(2);
    expect(after.has(victim as number)).toBe(false);
  }, 60_000);

  it("stops every worker cleanly on SIGTERM", async () => {
    const pids = await answeringPids(server);
    expect(await server.stop("SIGTERM")).toBe(0);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    // Each worker finished its own shutdown, then the primary.
    expect(countLogs(server, "worker stopped")).toBe(2);
    expect(entries(server).filter((e) => e.msg === "stopped").length).toBe(3);
  }, 30_000);
});
