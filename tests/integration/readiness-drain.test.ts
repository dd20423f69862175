/**
 * Readiness and the drain as a load balancer sees them, on the production build in a
 * process of its own: starting, ready, degraded (the upstream down, the caches answering),
 * not ready (nothing to answer with), draining after SIGTERM while still serving, then no
 * new connections while the request in flight finishes, and exit 0.
 */
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freshGet } from "../support/fresh-get.ts";
import { exitOf, runServerScript, type ServerProcess, startServerProcess } from "../support/server-process.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const ROUTES = { "/api/portal/sys/syscfg": { siteName: "Portal" }, "/api/portal/sys/menu/list": [] };

interface Answer {
  status: number;
  body: { status?: string } & Record<string, unknown>;
  connection?: string;
}

/** A GET on a connection of its own, its body read as JSON where it is. */
async function get(url: string): Promise<Answer> {
  const { status, text, headers } = await freshGet(url);
  let body: Answer["body"] = {};
  try {
    body = JSON.parse(text) as Answer["body"];
  } catch {}
  return { status, body, connection: headers.connection };
}

/** Polls `probe` until `done` holds for its answer (the state, not the time, decides). */
async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never saw ${what}`);
}

function internalOrigin(server: ServerProcess): string {
  const entry = server.logs.map((line) => JSON.parse(line) as { msg?: string; port?: number }).find((e) => e.msg === "internal listener");
  if (!entry?.port) throw new Error("no internal listener");
  return `http://127.0.0.1:${entry.port}`;
}

let upstream: StandInUpstream | undefined;
let server: ServerProcess | undefined;
afterEach(async () => {
  if (server && server.child.exitCode === null) await server.stop("SIGKILL");
  await upstream?.close();
  server = undefined;
  upstream = undefined;
});

describe("readiness", () => {
  it("stays 200, degraded, while the upstream is down but the caches can answer", async () => {
    upstream = await startStandInUpstream(ROUTES);
    server = await startServerProcess({ API_BASE_URL: upstream.url, METRICS_PORT: "0" }, { built: true });
    const internal = internalOrigin(server);
    expect(await get(`${server.origin}/portal/readyz`)).toMatchObject({ status: 200, body: { status: "ready" } });
    expect((await get(`${server.origin}/api/portal/sys/syscfg`)).status).toBe(200);

    upstream.behaviour = "error";
    const degraded = await until(
      () => get(`${server?.origin}/portal/readyz`),
      (a) => a.body.upstream !== undefined && !(a.body.upstream as { reachable: boolean }).reachable,
      "the upstream unreachable",
    );
    expect(degraded).toMatchObject({ status: 200, body: { status: "degraded", upstream: { reachable: false } } });
    expect(await get(`${internal}/readyz`)).toMatchObject({ status: 200, body: { status: "degraded", ready: true } });
    // What readiness promised: the cached answer is still served.
    expect((await get(`${server.origin}/api/portal/sys/syscfg`)).status).toBe(200);
  });

  it("is 503 with the upstream down and nothing cached, and ready once the upstream answers", async () => {
    upstream = await startStandInUpstream(ROUTES);
    upstream.behaviour = "error";
    server = await startServerProcess({ API_BASE_URL: upstream.url, METRICS_PORT: "0" }, { built: true });
    const internal = internalOrigin(server);
    expect(await get(`${server.origin}/portal/readyz`)).toMatchObject({ status: 503, body: { status: "not ready" } });
    expect(await get(`${internal}/readyz`)).toMatchObject({ status: 503, body: { status: "not ready" } });
    upstream.behaviour = "ok";
    await until(
      () => get(`${server?.origin}/portal/readyz`),
      (a) => a.status === 200 && a.body.status === "ready",
      "ready",
    );
  });

  it("is 503, starting, on the internal listener while the database is being prepared", async () => {
    // A PostgreSQL that accepts connections and never answers: preparing the database never ends.
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    const child = runServerScript(
      { HOST: "127.0.0.1", PORT: "0", METRICS_PORT: "0", DATABASE_URL: `postgres://portal@127.0.0.1:${port}/portal` },
      { built: true },
    );
    try {
      let output = "";
      child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
      });
      const internalPort = await until(
        async () => /"msg":"internal listener"[^\n]*"port":(\d+)|"port":(\d+)[^\n]*"msg":"internal listener"/.exec(output),
        (match) => match !== null,
        "the internal listener",
      ).then((match) => Number(match?.[1] ?? match?.[2]));
      expect(await get(`http://127.0.0.1:${internalPort}/readyz`)).toMatchObject({ status: 503, body: { status: "starting" } });
      expect((await get(`http://127.0.0.1:${internalPort}/healthz`)).status).toBe(200);
      expect(output).not.toContain('"msg":"listening"');
    } finally {
      child.kill("SIGKILL");
      await exitOf(child);
      silent.close();
    }
  });
});

describe("drain on SIGTERM", () => {
  it("turns readiness 503 at once, serves through the drain, then stops accepting, finishes what is in flight and exits 0", async () => {
    upstream = await startStandInUpstream(ROUTES);
    server = await startServerProcess(
      {
        API_BASE_URL: upstream.url,
        METRICS_PORT: "0",
        SHUTDOWN_DRAIN_MS: "1500",
        SHUTDOWN_GRACE_MS: "60000",
        UPSTREAM_TIMEOUT_MS: "60000",
      },
      { built: true },
    );
    const { origin } = server;
    const internal = internalOrigin(server);
    expect((await get(`${origin}/api/portal/sys/syscfg`)).status).toBe(200);
    // A request the upstream holds: in flight through the drain and after it.
    const release = upstream.hold("/api/portal/sys/menu/list");
    const inFlight = get(`${origin}/api/portal/sys/menu/list`);
    await until(
      async () => upstream?.count("/api/portal/sys/menu/list"),
      (n) => n === 1,
      "the held request upstream",
    );

    server.child.kill("SIGTERM");
    const draining = await until(
      () => get(`${origin}/portal/readyz`),
      (a) => a.status === 503,
      "readiness 503",
    );
    expect(draining.body.status).toBe("draining");
    expect(await get(`${internal}/readyz`)).toMatchObject({ status: 503, body: { status: "draining" } });
    // Still serving new connections during the drain, each answer closing its connection.
    const during = await get(`${origin}/api/portal/sys/syscfg`);
    expect(during.status).toBe(200);
    expect(during.connection).toBe("close");

    // After the drain: new connections are refused while the held request keeps the process up.
    await until(
      () =>
        get(`${origin}/portal/healthz`).then(
          () => "answered",
          (err: NodeJS.ErrnoException) => err.code ?? "error",
        ),
      (outcome) => outcome === "ECONNREFUSED",
      "new connections refused",
    );
    expect(server.child.exitCode).toBeNull();
    release();
    expect((await inFlight).status).toBe(200);
    expect(await exitOf(server.child)).toBe(0);
    const entries = server.logs.map((line) => JSON.parse(line) as { msg: string; level: string; url?: string; status?: number });
    expect(entries.map((e) => e.msg)).toEqual(expect.arrayContaining(["draining: readiness is 503, still serving", "stopped"]));
    // A drain's 503s are readiness saying what it was asked to: no error for an operator to chase.
    const drainAnswers = entries.filter((e) => e.msg === "request" && e.url === "/portal/readyz" && e.status === 503);
    expect(drainAnswers.length).toBeGreaterThan(0);
    expect(drainAnswers.map((e) => e.level)).toEqual(drainAnswers.map(() => "info"));
    expect(entries.filter((e) => e.level === "error")).toEqual([]);
  });

  it("cuts off what is still in flight after SHUTDOWN_GRACE_MS and exits 0", async () => {
    upstream = await startStandInUpstream(ROUTES);
    server = await startServerProcess(
      { API_BASE_URL: upstream.url, SHUTDOWN_DRAIN_MS: "0", SHUTDOWN_GRACE_MS: "300", UPSTREAM_TIMEOUT_MS: "600000" },
      { built: true },
    );
    upstream.hold("/api/portal/sys/menu/list");
    const inFlight = get(`${server.origin}/api/portal/sys/menu/list`).then(
      () => "answered",
      () => "cut off",
    );
    await until(
      async () => upstream?.count("/api/portal/sys/menu/list"),
      (n) => n === 1,
      "the held request upstream",
    );
    const signalled = Date.now();
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(await inFlight).toBe("cut off");
    // The grace is the setting's, not a fixed 10 s.
    expect(Date.now() - signalled).toBeLessThan(10_000);
  });
});
