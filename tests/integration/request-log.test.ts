/**
 * What an operator reads per request: one access line with the client (as trusted), the
 * request, the answer and its cache result, and the request id the upstream was sent.
 */
import { Writable } from "node:stream";
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { testConfig } from "../support/config.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

let upstream: StandInUpstream;

beforeAll(async () => {
  upstream = await startStandInUpstream({ "/api/portal/sys/menu/list": [], "/api/portal/sys/syscfg": { siteName: "x" } });
});

afterAll(async () => {
  await upstream.close();
});

/** An app behind one trusted proxy whose log lines (at `level`) land in the returned list. */
function loggedApp(level: "info" | "debug"): { app: PortalApp; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = createApp(testConfig({ API_BASE_URL: upstream.url, TRUST_PROXY: "1" }), { logger: pino({ level }, sink) });
  return { app, lines };
}

const accessLines = (lines: Record<string, unknown>[]) => lines.filter((line) => line.msg === "request");
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("at info", () => {
  let app: PortalApp;
  let lines: Record<string, unknown>[];

  beforeAll(() => {
    ({ app, lines } = loggedApp("info"));
  });

  afterAll(() => app.portal.close());

  it("logs a miss with the client as trusted, the request, the answer, its size, its cache result and the user agent", async () => {
    const miss = await request(app)
      .get("/api/portal/sys/menu/list")
      .set("X-Request-Id", "abc-123")
      .set("X-Forwarded-For", "203.0.113.9")
      .set("User-Agent", "probe/1.0");
    expect(miss.headers["x-request-id"]).toBe("abc-123");
    await settled();
    const [line] = accessLines(lines);
    expect(line).toMatchObject({
      reqId: "abc-123",
      client: "203.0.113.9",
      method: "GET",
      url: "/api/portal/sys/menu/list",
      status: 200,
      cache: "MISS",
      ua: "probe/1.0",
    });
    // The bytes as sent, headers included.
    expect(line?.bytes).toBeGreaterThan(Number(miss.headers["content-length"]));
    expect(line?.ms).toEqual(expect.any(Number));
  });

  it("sends the request id to the upstream", async () => {
    const res = await request(app).get("/api/portal/sys/syscfg");
    const id = res.headers["x-request-id"];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(upstream.requests.filter((r) => r.url.startsWith("/api/portal/sys/syscfg")).map((r) => r.requestId)).toEqual([id]);
  });

  it("writes nothing at info for a cache hit, and counts it in the metrics", async () => {
    const before = accessLines(lines).length;
    const hit = await request(app).get("/api/portal/sys/menu/list");
    expect(hit.headers["x-cache"]).toBe("HIT");
    await settled();
    expect(accessLines(lines)).toHaveLength(before);
    const metrics = await app.portal.metrics.registry.metrics();
    expect(metrics).toContain('portal_http_request_duration_seconds_count{kind="api",status_class="2xx"} 3');
    expect(metrics).toContain('portal_cache_hits_total{cache="api"} 1');
  });

  it("replaces an unsafe inbound request id with its own", async () => {
    const res = await request(app).get("/portal/healthz").set("X-Request-Id", "<script>");
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("at debug", () => {
  it("logs the hits the fast path answers too, as hits", async () => {
    const { app, lines } = loggedApp("debug");
    await request(app).get("/api/portal/sys/menu/list");
    await request(app).get("/api/portal/sys/menu/list").set("X-Forwarded-For", "198.51.100.4").set("User-Agent", "probe/2");
    await settled();
    expect(accessLines(lines).map((line) => line.cache)).toEqual(["MISS", "HIT"]);
    expect(accessLines(lines)[1]).toMatchObject({ level: 20, client: "198.51.100.4", ua: "probe/2", status: 200 });
    app.portal.close();
  });
});
