/**
 * What an operator sees: the real process started from the source, configured only
 * through its environment, on a fresh database loaded with the demo site.
 */
import { mkdtemp, readdir, readFile, readlink, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { API_CALLS, callPath } from "../../shared/api-calls.ts";
import { refusedStart, type ServerProcess, startServerProcess } from "../support/server-process.ts";
import { startStandInUpstream } from "../support/stand-in-upstream.ts";

/** The TCP ports a process listens on, from /proc: its sockets' inodes matched against the kernel's listening table. */
async function listeningPortsOf(pid: number): Promise<number[]> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) inodes.add(inode);
  }
  const ports: number[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const row of (await readFile(table, "utf8")).split("\n").slice(1)) {
      const fields = row.trim().split(/\s+/);
      // local address (hex ip:port), state 0A = LISTEN, inode
      if (fields[3] === "0A" && inodes.has(fields[9] as string))
        ports.push(Number.parseInt((fields[1] as string).split(":")[1] as string, 16));
    }
  }
  return ports;
}

describe("startup with a bad environment", () => {
  it.each([
    ["PORT", "eighty", "PORT must be a port number"],
    ["CACHE_TTL_MS", "soon", "CACHE_TTL_MS must be a whole number of milliseconds"],
    ["DATABASE_URL", "mysql://db/portal", "DATABASE_URL must be sqlite:PATH or postgres://"],
    ["METRICS_PORT", "nine", "METRICS_PORT must be a port number"],
  ])("exits 1 with one line naming %s", async (name, value, message) => {
    const { code, lines } = await refusedStart({ [name]: value });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(message);
  });

  it.each([
    ["DATABASE_URL", "mysql://portal:s3cr3t-pw@db.internal/portal"],
    ["API_BASE_URL", "https://admin:s3cr3t-pw@cms.example.com"],
  ])("exits 1 naming %s without echoing its credentials", async (name, value) => {
    const { code, lines } = await refusedStart({ [name]: value });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${name} must be`);
    expect(lines[0]).toContain("://***@");
    expect(lines[0]).not.toMatch(/s3cr3t|portal:|admin:/);
  });

  it.each([
    ["IMAGE_HOSTS", "https://u:s3cr3t-pw@img.example.com"],
    ["IMAGE_HOSTS", "https://img.example.com,https://u:s3cr3t,pw@img.example.com"],
    ["REDIS_URL", "redis:/user:s3cr3t-pw@redis.internal"],
    ["DATABASE_URL", "postgres:/u:s3cr3t-pw@db.internal/portal"],
    ["REDIS_URL", "redis://u:s3cr3t/pw@redis.internal:6379"],
    ["REDIS_URL", "redis://u:s3cr3t#pw@redis.internal"],
    ["DATABASE_URL", "mysql://u:s3cr3t?pw@db.internal/portal"],
    ["DATABASE_URL", "mysql://u:s3cr3t@pw@db.internal/portal"],
    ["DATABASE_URL", "mysql://u:s3cr3t pw@db.internal/portal"],
  ])("exits 1 naming %s=%s without any of its userinfo", async (name, value) => {
    const { code, lines } = await refusedStart({ [name]: value });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${name} must `));
    expect(lines[0]).toContain("***@");
    expect(lines[0]).not.toMatch(/s3cr3t|pw@|u:|user:/);
  });

  it.each([
    ["zh-CN,,en", 'PORTAL_LANGS has an empty entry: give the tags joined by commas, such as zh-CN,en (got "zh-CN,,en")'],
    ["en,en", 'PORTAL_LANGS names en twice (got "en,en")'],
  ])("refuses PORTAL_LANGS=%s with one line saying what is wrong", async (value, line) => {
    const { code, lines } = await refusedStart({ PORTAL_LANGS: value });
    expect(code).toBe(1);
    expect(lines).toEqual([line]);
  });

  it("refuses TRUST_PROXY=true with one line saying what to give instead", async () => {
    const { code, lines } = await refusedStart({ TRUST_PROXY: "true" });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^TRUST_PROXY must not be true .*hop count.*loopback.*subnets/);
  });

  it("exits 1 with one line when the embedded database cannot be opened (its thread reports why)", async () => {
    const { code, lines } = await refusedStart({ DATABASE_URL: "sqlite:/dev/null/portal.db" });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^startup failed: .*mkdir .\/dev\/null/);
  });
});

describe("npm start with no upstream configured", () => {
  let dir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-start-"));
    server = await startServerProcess({
      DATABASE_URL: `sqlite:${path.join(dir, "data/portal.db")}`,
      LOG_LEVEL: "info",
      // Node's module loader names every file it loads on stderr: which build of React renders the pages.
      NODE_DEBUG: "module",
    });
  });

  afterAll(async () => {
    if (server.child.exitCode === null) await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("loads the demo site and answers every call with it", async () => {
    const get = async (p: string) => (await fetch(`${server.origin}/api/portal${p}`)).json();
    const news = (await get("/message/news/list?pageMaxCount=100")).data;
    expect(news.totalCount).toBeGreaterThanOrEqual(30);
    const ids: Record<string, number> = {
      "/message/news/{id}": news.pageDataList[0].id,
      "/message/notice/{id}": (await get("/message/notice/list")).data.pageDataList[0].id,
      "/product/product/{id}": (await get("/product/product/list")).data[0].id,
      "/service/service/{id}": (await get("/service/service/list")).data[0].id,
      "/job/job/{id}": (await get("/job/job/list?type=1")).data.pageDataList[0].id,
    };
    for (const call of API_CALLS.filter((c) => c.method === "GET")) {
      const query = call.id === "readerCount" ? `?type=2&pid=${ids["/message/news/{id}"]}` : "";
      const res = await fetch(`${server.origin}/api/portal${callPath(call, ids[call.path])}${query}`);
      const body = await res.json();
      expect(res.status, call.path).toBe(200);
      expect(body.code, call.path).toBe(0);
    }
    // Its sub-requests to the embedded content API are for debugging: at info only the access lines show.
    expect(server.logs.filter((line) => JSON.parse(line).msg === "content api request")).toEqual([]);
    const slides = (await get("/message/indexslide/list")).data;
    expect(slides).toHaveLength(10);
    expect((await get("/crm/partner/list")).data.length).toBeGreaterThanOrEqual(40);
    expect((await get("/sys/sysauthor")).data.fname).toMatch(/有限公司$/);
  });

  it("renders pages with React's production build though NODE_ENV is unset", async () => {
    const res = await fetch(`${server.origin}/portal/index.html`);
    expect(res.status).toBe(200);
    const reactFiles = [...server.stderr().matchAll(/load "([^"]*\/react(?:-dom)?\/cjs\/[^"]+)"/g)].map((m) => path.basename(m[1] ?? ""));
    expect(reactFiles).toContain("react-dom-server.node.production.js");
    expect(reactFiles.filter((file) => file.includes(".development."))).toEqual([]);
  });

  it("serves the demo images with a year-long immutable lifetime", async () => {
    const slides = (await (await fetch(`${server.origin}/api/portal/message/indexslide/list`)).json()).data;
    const res = await fetch(`${server.origin}${slides[0].img}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await fetch(`${server.origin}/portal/media/nope.svg`)).status).toBe(404);
  });

  it("is ready, reporting the embedded database open", async () => {
    const res = await fetch(`${server.origin}/portal/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ready", database: "open", upstream: { reachable: true } });
  });

  it("opens no internal listener without METRICS_PORT: the site and its content API are all it listens on", async () => {
    const listening = server.logs.map((line) => JSON.parse(line)).find((entry) => entry.msg === "listening");
    expect(server.logs.some((line) => JSON.parse(line).msg === "internal listener")).toBe(false);
    const ports = await listeningPortsOf(listening.pid);
    expect(ports).toHaveLength(2);
    expect(ports).toContain(listening.port);
  });

  it("logs structured JSON lines and stops cleanly on SIGTERM", async () => {
    expect(server.logs.some((line) => JSON.parse(line).msg === "loaded the demo site into an empty database")).toBe(true);
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(server.logs.some((line) => JSON.parse(line).msg === "stopped")).toBe(true);
  });
});

describe("stopping under way", () => {
  it("finishes an answer in flight as the last of its keep-alive connection, closes idle ones, and exits 0", async () => {
    const upstream = await startStandInUpstream({});
    upstream.behaviour = "hang";
    const server = await startServerProcess({ API_BASE_URL: upstream.url, UPSTREAM_TIMEOUT_MS: "1500", LOG_LEVEL: "info" });
    const agent = new http.Agent({ keepAlive: true });
    try {
      // One idle keep-alive connection, and one request waiting on the hanging upstream.
      await new Promise<void>((resolve, reject) =>
        http.get(`${server.origin}/portal/healthz`, { agent }, (res) => res.resume().on("end", resolve)).on("error", reject),
      );
      const inFlight = new Promise<http.IncomingMessage>((resolve, reject) =>
        http.get(`${server.origin}/api/portal/sys/syscfg`, { agent }, resolve).on("error", reject),
      );
      // Under way once the upstream has it: a stop before that would find the connection idle.
      await vi.waitFor(() => expect(upstream.count("/api/portal/sys/syscfg")).toBe(1), { timeout: 10_000, interval: 20 });
      const stoppedAt = Date.now();
      const exited = server.stop("SIGTERM");
      const res = await inFlight;
      res.resume();
      expect(res.statusCode).toBe(504);
      expect(res.headers.connection).toBe("close");
      expect(await exited).toBe(0);
      // Well inside the 10 s grace period: the idle connection did not hold the process.
      expect(Date.now() - stoppedAt).toBeLessThan(5000);
    } finally {
      agent.destroy();
      if (server.child.exitCode === null) await server.stop("SIGKILL");
      await upstream.close();
    }
  });
});
