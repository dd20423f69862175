import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { testConfig } from "../support/config.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

let upstream: StandInUpstream;
let app: PortalApp;

beforeAll(async () => {
  upstream = await startStandInUpstream({ "/api/portal/sys/syscfg": { themePortal: "1,1" } });
  app = createApp(testConfig({ API_BASE_URL: upstream.url }));
});

afterAll(async () => {
  app.portal.close();
  await upstream.close();
});

describe("redirects", () => {
  it.each([
    ["/", "/portal/index.html"],
    ["/portal", "/portal/index.html"],
    ["/portal/", "/portal/index.html"],
    ["/?utm_source=x&a=1", "/portal/index.html?utm_source=x&a=1"],
    ["/portal/no/such/page.html?page=2", "/portal/index.html?page=2"],
    ["/anything", "/portal/index.html"],
    ["//evil.example", "/portal/index.html"],
    ["/portal//evil.example", "/portal/index.html"],
    ["/portal/%2F%2Fevil.example", "/portal/index.html"],
    ["/\\evil.example", "/portal/index.html"],
    ["/%5Cevil.example", "/portal/index.html"],
    ["/portal/index.html/..%2F..%2F%2Fevil.example?x=//evil.example", "/portal/index.html?x=//evil.example"],
  ])("sends %s to %s with 302, never to another host", async (from, to) => {
    const res = await request(app).get(from);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(to);
    const target = new URL(res.headers.location as string, "https://site.example");
    expect(target.host).toBe("site.example");
  });

  it("does not redirect other methods on unknown paths", async () => {
    const res = await request(app).post("/wp-login.php");
    expect(res.status).toBe(405);
  });
});

describe("health", () => {
  it("reports liveness and nothing about the process, its caches or the upstream", async () => {
    await request(app).get("/api/portal/sys/syscfg");
    await request(app).get("/api/portal/sys/syscfg");
    const res = await request(app).get("/portal/healthz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("is ready while the upstream answers, and 503 when it does not (checked at most once a second)", async () => {
    const clock = { now: 1_000_000 };
    const timed = createApp(testConfig({ API_BASE_URL: upstream.url }), { now: () => clock.now });
    const ready = await request(timed).get("/portal/readyz");
    expect(ready.status).toBe(200);
    // Readiness alone: no process id, cache figures or upstream history (those are the internal listener's).
    expect(ready.body).toEqual({ status: "ready", upstream: { reachable: true }, database: "not used" });
    upstream.behaviour = "error";
    clock.now += 1000;
    const down = await request(timed).get("/portal/readyz");
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: "not ready", upstream: { reachable: false } });
    upstream.behaviour = "ok";
    timed.portal.close();
  });

  it("is not ready when the database is closed", async () => {
    const withDb = createApp(testConfig({ API_BASE_URL: upstream.url }), {
      database: { ping: () => Promise.reject(new Error("closed")) },
    });
    const res = await request(withDb).get("/portal/readyz");
    expect(res.status).toBe(503);
    expect(res.body.database).toBe("unavailable");
    withDb.portal.close();
  });

  it("sends no X-Powered-By and carries security headers", async () => {
    const res = await request(app).get("/portal/healthz");
    expect(res.headers["x-powered-by"]).toBeUndefined();
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-request-id"]).toMatch(/^[\w-]+$/);
  });
});
