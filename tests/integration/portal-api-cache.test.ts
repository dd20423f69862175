/**
 * The /api/portal cache on a real stand-in upstream: one upstream request for many cold ones,
 * MISS, HIT and STALE, upstream failures, conditional requests, keys, what is never stored,
 * per-prefix TTLs and the byte bound.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { apiUpstreamForEachTest, app, build, clock, PARTNERS, SYSCFG, settle, upstream } from "../support/api-cache-app.ts";

apiUpstreamForEachTest();

describe("/api/portal cache", () => {
  it("answers 100 concurrent cold requests for one key with exactly one upstream request", async () => {
    build();
    const answers = await Promise.all(Array.from({ length: 100 }, () => request(app).get(SYSCFG)));
    expect(answers.every((r) => r.status === 200 && r.body.data.metaKeywords === "demo")).toBe(true);
    expect(upstream.count(SYSCFG)).toBe(1);
  });

  it("says MISS then HIT, and the hit does not reach the upstream", async () => {
    build();
    const first = await request(app).get(SYSCFG);
    const second = await request(app).get(SYSCFG);
    expect(first.headers["x-cache"]).toBe("MISS");
    expect(second.headers["x-cache"]).toBe("HIT");
    expect(second.body).toEqual({ code: 0, msg: "ok", data: { themePortal: "1,1", metaKeywords: "demo" } });
    expect(second.headers["cache-control"]).toMatch(/^public, max-age=\d+/);
    expect(upstream.count()).toBe(1);
  });

  it("serves an expired entry as STALE while exactly one background refresh runs", async () => {
    build();
    await request(app).get(SYSCFG);
    upstream.routes.set(SYSCFG, { metaKeywords: "updated" });
    clock.now += 1500;
    const stale = await Promise.all(Array.from({ length: 10 }, () => request(app).get(SYSCFG)));
    expect(stale.map((r) => r.headers["x-cache"])).toEqual(Array(10).fill("STALE"));
    expect(stale[0]?.body.data.metaKeywords).toBe("demo");
    await settle();
    expect(upstream.count(SYSCFG)).toBe(2);
    const fresh = await request(app).get(SYSCFG);
    expect(fresh.headers["x-cache"]).toBe("HIT");
    expect(fresh.body.data.metaKeywords).toBe("updated");
  });

  it("serves a stale 200 when the upstream is down, and 502 once the stale window has passed", async () => {
    build();
    await request(app).get(SYSCFG);
    upstream.behaviour = "reset";
    clock.now += 1500;
    const stale = await request(app).get(SYSCFG);
    expect(stale.status).toBe(200);
    expect(stale.headers["x-cache"]).toBe("STALE");
    await settle();
    clock.now += 6000;
    const gone = await request(app).get(SYSCFG);
    expect(gone.status).toBe(502);
    expect(gone.body).toEqual({ code: 502, msg: "upstream is unavailable", data: null });
  });

  it("answers 502 with no stale entry when the upstream errors, and never leaks its body", async () => {
    build();
    upstream.behaviour = "error";
    const res = await request(app).get(SYSCFG);
    expect(res.status).toBe(502);
    expect(JSON.stringify(res.body)).not.toContain("10.0.0.7");
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("answers 504 within the timeout when the upstream hangs", async () => {
    build({ UPSTREAM_TIMEOUT_MS: "300" });
    upstream.behaviour = "hang";
    const started = Date.now();
    const res = await request(app).get(SYSCFG);
    expect(res.status).toBe(504);
    expect(res.body.msg).toBe("upstream timed out");
    expect(Date.now() - started).toBeLessThan(300 + 1500);
  });

  it("answers 502 for invalid JSON and does not cache it", async () => {
    build();
    upstream.behaviour = "invalid-json";
    expect((await request(app).get(SYSCFG)).status).toBe(502);
    upstream.behaviour = "ok";
    const res = await request(app).get(SYSCFG);
    expect(res.status).toBe(200);
    expect(res.headers["x-cache"]).toBe("MISS");
    expect(upstream.count(SYSCFG)).toBe(2);
  });

  it("answers 304 to a matching If-None-Match", async () => {
    build();
    const first = await request(app).get(PARTNERS);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await request(app).get(PARTNERS).set("If-None-Match", `W/"other", ${etag}`);
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    const changed = await request(app).get(PARTNERS).set("If-None-Match", '"other"');
    expect(changed.status).toBe(200);
  });

  it("normalises the key: order, unknown parameters, empty values and defaults share one entry", async () => {
    build();
    const urls = [
      "/api/portal/message/news/list?pageMaxCount=20&pageIndex=0",
      "/api/portal/message/news/list?pageIndex=0&pageMaxCount=20&utm_source=x",
      "/api/portal/message/news/list?pageIndex=&foo=bar",
      "/api/portal/message/news/list",
    ];
    for (const url of urls) expect((await request(app).get(url)).status).toBe(200);
    expect(upstream.count("/api/portal/message/news/list")).toBe(1);
    expect(upstream.requests[0]?.url).toBe("/api/portal/message/news/list?pageIndex=0&pageMaxCount=20");
  });

  it("never stores answers marked no-store or private, or that set a cookie", async () => {
    for (const headers of [{ "cache-control": "no-store" }, { "cache-control": "private, max-age=60" }, { "set-cookie": "s=1" }] as Record<
      string,
      string
    >[]) {
      build();
      upstream.headers = headers;
      const before = upstream.count();
      const first = await request(app).get(SYSCFG);
      const second = await request(app).get(SYSCFG);
      expect(first.status).toBe(200);
      expect(second.headers["x-cache"]).toBe("MISS");
      expect(second.headers["set-cookie"]).toBeUndefined();
      expect(upstream.count() - before).toBe(2);
      app.portal.close();
    }
  });

  it("passes a non-zero code through untouched and never caches it", async () => {
    build();
    upstream.routes.set(SYSCFG, () => ({ body: { code: 7, msg: "maintenance", data: null } }));
    const first = await request(app).get(SYSCFG);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ code: 7, msg: "maintenance", data: null });
    await request(app).get(SYSCFG);
    expect(upstream.count(SYSCFG)).toBe(2);
  });

  it("passes an upstream 404 through as 404", async () => {
    build();
    const res = await request(app).get("/api/portal/message/news/999");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(404);
  });

  it("applies the longest matching per-prefix TTL", async () => {
    build({ CACHE_TTL_OVERRIDES: "/sys/=10000,/sys/sysc=3000" });
    await request(app).get(SYSCFG);
    await request(app).get(PARTNERS);
    clock.now += 2000;
    expect((await request(app).get(SYSCFG)).headers["x-cache"]).toBe("HIT");
    expect((await request(app).get(PARTNERS)).headers["x-cache"]).toBe("STALE");
    clock.now += 2000;
    expect((await request(app).get(SYSCFG)).headers["x-cache"]).toBe("STALE");
  });

  it("lets no request header change a cached answer", async () => {
    build();
    await request(app).get(SYSCFG).set("Accept-Language", "en").set("X-Forwarded-Host", "evil.example");
    const res = await request(app).get(SYSCFG);
    expect(res.headers["x-cache"]).toBe("HIT");
    expect(res.headers.vary ?? "").not.toMatch(/accept-language|x-forwarded-host/i);
  });

  it("evicts least recently used entries to stay within CACHE_MAX_MB", async () => {
    const big = "x".repeat(200_000);
    upstream.routes.set("/api/portal/message/news/list", (url: URL) => ({ body: { code: 0, msg: "ok", data: { page: url.search, big } } }));
    build({ CACHE_MAX_MB: "1" });
    for (let i = 0; i < 10; i++) await request(app).get(`/api/portal/message/news/list?pageIndex=${i}`);
    const stats = app.portal.cache.stats();
    expect(stats.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(stats.entries).toBeLessThan(10);
    expect((await request(app).get("/api/portal/message/news/list?pageIndex=9")).headers["x-cache"]).toBe("HIT");
  });
});
