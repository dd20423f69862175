import { Writable } from "node:stream";
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { testConfig } from "../support/config.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

let upstream: StandInUpstream;
let app: PortalApp;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  upstream = await startStandInUpstream({ "/api/portal/sys/menu/list": [] });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  app = createApp(testConfig({ API_BASE_URL: upstream.url }), { logger: pino({ level: "info" }, sink) });
});

afterAll(async () => {
  app.portal.close();
  await upstream.close();
});

it("logs a miss with its request id, and nothing at info for a cache hit", async () => {
  const miss = await request(app).get("/api/portal/sys/menu/list").set("X-Request-Id", "abc-123");
  const hit = await request(app).get("/api/portal/sys/menu/list");
  expect(miss.headers["x-request-id"]).toBe("abc-123");
  expect(hit.headers["x-cache"]).toBe("HIT");
  await new Promise((resolve) => setImmediate(resolve));
  const requestLines = lines.filter((line) => line.msg === "request");
  expect(requestLines).toHaveLength(1);
  expect(requestLines[0]).toMatchObject({ reqId: "abc-123", status: 200, cache: "MISS", url: "/api/portal/sys/menu/list" });
});

it("replaces an unsafe inbound request id with its own", async () => {
  // A fresh hit carries no request id at all: ask for something the app answers.
  const res = await request(app).get("/portal/healthz").set("X-Request-Id", "<script>");
  expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
});
