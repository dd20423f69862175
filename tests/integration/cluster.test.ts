/**
 * WEB_CONCURRENCY: the real process forks worker processes that share one port, each
 * answering with the whole site; a worker that dies is replaced; SIGTERM stops them all.
 */
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { exitOf, refusedStart, runServerScript, type ServerProcess, startServerProcess } from "../support/server-process.ts";

/** A GET on a new connection each time, so the primary hands each one to the next worker. */
function getOnNewConnection(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers: { connection: "close" } }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

async function healthPid(origin: string): Promise<number> {
  const res = await getOnNewConnection(`${origin}/portal/healthz`);
  expect(res.status).toBe(200);
  return (JSON.parse(res.body) as { pid: number }).pid;
}

/** The pids that answer a run of health checks on fresh connections. */
async function answeringPids(origin: string, requests = 12): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < requests; i++) pids.add(await healthPid(origin));
  return pids;
}

const entries = (server: ServerProcess) => server.logs.map((line) => JSON.parse(line) as { msg?: string; pid?: number });
const countLogs = (server: ServerProcess, msg: string) => entries(server).filter((e) => e.msg === msg).length;

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
      LOG_LEVEL: "info",
    });
    await vi.waitFor(() => expect(countLogs(server, "all workers listening")).toBe(1), { timeout: 30_000, interval: 100 });
  }, 60_000);

  afterAll(async () => {
    if (server.child.exitCode === null) await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("loads the demo site once, then two workers answer on the one port", async () => {
    expect(countLogs(server, "loaded the demo site into an empty database")).toBe(1);
    const pids = await answeringPids(server.origin);
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

  it("replaces a worker that dies", async () => {
    const before = await answeringPids(server.origin);
    const [victim] = [...before];
    process.kill(victim as number, "SIGKILL");
    await vi.waitFor(() => expect(countLogs(server, "worker exited unexpectedly; restarting")).toBe(1), { timeout: 10_000, interval: 50 });
    await vi.waitFor(() => expect(countLogs(server, "all workers listening")).toBe(2), { timeout: 30_000, interval: 100 });
    const after = await answeringPids(server.origin);
    expect(after.size).toBe(2);
    expect(after.has(victim as number)).toBe(false);
  }, 60_000);

  it("stops every worker cleanly on SIGTERM", async () => {
    const pids = await answeringPids(server.origin);
    expect(await server.stop("SIGTERM")).toBe(0);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    // Each worker finished its own shutdown, then the primary.
    expect(countLogs(server, "worker stopped")).toBe(2);
    expect(entries(server).filter((e) => e.msg === "stopped").length).toBe(3);
  }, 30_000);
});

describe("WEB_CONCURRENCY with a bad value", () => {
  it.each(["0", "65", "two"])("exits 1 with one line naming it (%s)", async (value) => {
    const { code, lines } = await refusedStart({ WEB_CONCURRENCY: value });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^WEB_CONCURRENCY must be a whole number of worker processes from 1 to 64/);
  });
});

describe("WEB_CONCURRENCY=2 when the port is taken", () => {
  let dir: string;
  let blocker: http.Server;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-cluster-taken-"));
    blocker = http.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => blocker.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it("does not keep restarting workers: it stops and exits 1", async () => {
    const { port } = blocker.address() as AddressInfo;
    const child = runServerScript({
      WEB_CONCURRENCY: "2",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
      LOG_LEVEL: "info",
    });
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    expect(await exitOf(child)).toBe(1);
    const messages = stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toContain("cannot listen");
    expect(messages).toContain("worker failed before listening; stopping");
    expect(messages).not.toContain("worker exited unexpectedly; restarting");
  }, 60_000);
});
