/**
 * Miss floods: a client sending endless keys that miss every cache. Each client has a
 * budget of requests that reach the upstream or a render (MISS_RATE_PER_MIN): past it,
 * 429 with Retry-After before any work, while its cache hits and other clients' misses
 * are still answered. Not-found pages live apart from real ones, and readiness is
 * checked once for concurrent callers. Real app, real stand-in upstream, real renders.
 */
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { createProdRenderer } from "../../server/render/prod-renderer.ts";
import { testConfig } from "../support/config.ts";
import { settled } from "../support/settled.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const NEWS = { id: 1, title: "真实新闻", brief: "简介", img: "", dateTime: "20240101000000", detail: "<p>正文</p>" };
const ATTACKER = "203.0.113.7";
const VISITOR = "198.51.100.20";
const NEWCOMER = "192.0.2.99";

let upstream: StandInUpstream;
let app: PortalApp | undefined;
const clock = { now: 7_000_000 };

async function build(env: Record<string, string>): Promise<PortalApp> {
  app = createApp(testConfig({ API_BASE_URL: upstream.url, TRUST_PROXY: "loopback", ...env }), {
    renderer: await createProdRenderer(),
    now: () => clock.now,
  });
  return app;
}

/** A GET from the client at `address` (behind the trusted loopback proxy), through the hot paths and Express. */
const get = (portal: PortalApp, path: string, address: string, headers: Record<string, string> = {}) =>
  request(portal).get(path).set("X-Forwarded-For", address).set(headers);

/** The headers `names` of `answer`, for comparing two answers header by header. */
const headersOf = (answer: request.Response, names: string[]) => Object.fromEntries(names.map((name) => [name, answer.headers[name]]));

/** Asks for a page and waits until its rendering has been compressed and stored: the next request for it is a hit. */
async function untilCached(portal: PortalApp, path: string, address: string): Promise<void> {
  await get(portal, path, address);
  await settled(portal);
  if ((await get(portal, path, address)).headers["x-page-cache"] !== "HIT") throw new Error(`${path} was never stored`);
}

beforeEach(async () => {
  clock.now = 7_000_000;
  upstream = await startStandInUpstream({
    "/api/portal/sys/syscfg": { themePortal: "1,1" },
    "/api/portal/sys/sysauthor": { name: "公司", fname: "公司全称" },
    "/api/portal/sys/menu/list": [],
    "/api/portal/message/news/1": NEWS,
    "/api/portal/message/news/2": { ...NEWS, id: 2, title: "另一条" },
    "/api/portal/reader/reader": 7,
  });
});

afterEach(async () => {
  app?.portal.close();
  app = undefined;
  await upstream.close();
});

describe("the miss budget of /api/portal", () => {
  it("answers a client's misses up to its budget, then 429 before the upstream hears of them; its hits and other clients go on", async () => {
    // 60 a minute: a burst of 6, then one a second.
    const portal = await build({ MISS_RATE_PER_MIN: "60" });
    // One miss of the budget fills the cache for everyone.
    expect((await get(portal, "/api/portal/sys/syscfg", ATTACKER)).status).toBe(200);
    for (let id = 1000; id < 1005; id++) expect((await get(portal, `/api/portal/message/news/${id}`, ATTACKER)).status).toBe(404);
    const before = upstream.count();

    const refused = await get(portal, "/api/portal/message/news/1005", ATTACKER);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect(refused.body).toMatchObject({ code: 429, msg: expect.stringMatching(/too many requests/), data: null });
    // Never cached, so never free: reader counts are charged too. Asked before its time, the
    // client is refused before Express (no request id, as for hits), with the same answer.
    const early = await get(portal, "/api/portal/reader/reader?type=2&pid=1", ATTACKER);
    expect(early.status).toBe(429);
    expect(early.body).toEqual(refused.body);
    const same = ["retry-after", "cache-control", "content-type", "content-security-policy", "x-content-type-options"];
    expect(headersOf(early, same)).toEqual(headersOf(refused, same));
    expect([early.headers["x-request-id"], typeof refused.headers["x-request-id"]]).toEqual([undefined, "string"]);
    expect((await get(portal, "/api/portal/message/news/1010", ATTACKER)).status).toBe(429);
    const put = await request(portal).put("/api/portal/reader/reader").set("X-Forwarded-For", ATTACKER).send({ type: 2, pid: 1 });
    expect(put.status).toBe(429);
    expect(upstream.count()).toBe(before);

    // Cached answers are never refused, through Express (first) and before it (once prepared).
    for (let i = 0; i < 3; i++) {
      const hit = await get(portal, "/api/portal/sys/syscfg", ATTACKER);
      expect(hit.status).toBe(200);
      expect(hit.headers["x-cache"]).toBe("HIT");
    }
    // So are the not-found answers it already made.
    expect((await get(portal, "/api/portal/message/news/1000", ATTACKER)).status).toBe(404);
    // Another client's cold miss is answered.
    const other = await get(portal, "/api/portal/message/news/2", VISITOR);
    expect(other.status).toBe(200);
    expect(other.body.data.title).toBe("另一条");

    // The budget refills evenly: a second later, one more request.
    clock.now += 1000;
    expect((await get(portal, "/api/portal/message/news/1006", ATTACKER)).status).toBe(404);
    expect((await get(portal, "/api/portal/message/news/1007", ATTACKER)).status).toBe(429);
  });

  it("counts a client whose trusted proxy passes on an X-Forwarded-For that is no address as the proxy, not as a new client each time", async () => {
    // 60 a minute: a burst of 6.
    const portal = await build({ MISS_RATE_PER_MIN: "60" });
    const statuses: number[] = [];
    for (let id = 1000; id < 1008; id++) statuses.push((await get(portal, `/api/portal/message/news/${id}`, `client-${id}`)).status);
    expect(statuses.slice(0, 6)).toEqual(Array(6).fill(404));
    expect(statuses.slice(6)).toEqual([429, 429]);
    // A client the proxy names by its address keeps a budget of its own.
    expect((await get(portal, "/api/portal/message/news/2", VISITOR)).status).toBe(200);
  });

  it("charges readiness checks, and MISS_RATE_PER_MIN=0 sets no limit", async () => {
    const limited = await build({ MISS_RATE_PER_MIN: "20" });
    expect((await get(limited, "/portal/readyz", ATTACKER)).status).toBe(200);
    expect((await get(limited, "/portal/readyz", ATTACKER)).status).toBe(200);
    const refused = await get(limited, "/portal/readyz", ATTACKER);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("3");
    expect((await get(limited, "/portal/readyz", VISITOR)).status).toBe(200);
    expect(await limited.portal.metrics.registry.metrics()).toContain("portal_miss_budget_refusals_total 1");
    limited.portal.close();

    const unlimited = await build({ MISS_RATE_PER_MIN: "0" });
    for (let id = 1000; id < 1030; id++) expect((await get(unlimited, `/api/portal/message/news/${id}`, ATTACKER)).status).toBe(404);
  });
});

describe("the miss budget of pages", () => {
  it("renders a client's page misses up to its budget, then answers a small 429 page; cached pages are still served to it", async () => {
    const portal = await build({ MISS_RATE_PER_MIN: "30" });
    await untilCached(portal, "/portal/message/news/1", VISITOR);
    for (const id of [5001, 5002, 5003]) expect((await get(portal, `/portal/message/news/${id}`, ATTACKER)).status).toBe(404);
    const before = upstream.count();

    const refused = await get(portal, "/portal/message/news/5004", ATTACKER);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("2");
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect(refused.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(refused.headers["content-security-policy"]).toBeDefined();
    expect(refused.text).toContain("请 2 秒后再试");
    // Asked again before its time: refused before Express runs, with the same headers and the page's language.
    const early = await get(portal, "/portal/en/message/news/5005", ATTACKER);
    expect(early.status).toBe(429);
    expect(early.text).toContain("Please try again in 2 seconds");
    const same = ["retry-after", "cache-control", "content-type", "content-security-policy", "x-content-type-options", "x-frame-options"];
    expect(headersOf(early, same)).toEqual(headersOf(refused, same));
    // Answered before Express: no request id, as for cache hits, for it starts nothing to follow.
    expect(early.headers["x-request-id"]).toBeUndefined();
    expect(refused.headers["x-request-id"]).toBeDefined();
    expect((await request(portal).head("/portal/message/news/5006").set("X-Forwarded-For", ATTACKER)).status).toBe(429);
    expect(upstream.count()).toBe(before);
    const metrics = await portal.portal.metrics.registry.metrics();
    expect(metrics).toMatch(/^portal_miss_budget_refusals_total 3$/m);

    const cached = await get(portal, "/portal/message/news/1", ATTACKER);
    expect(cached.status).toBe(200);
    expect(cached.headers["x-page-cache"]).toBe("HIT");
    expect(cached.text).toContain("真实新闻");
    const other = await get(portal, "/portal/message/news/2", NEWCOMER);
    expect(other.status).toBe(200);
    expect(other.text).toContain("另一条");
  });
});

describe("not-found pages", () => {
  it("are kept apart: a flood of unknown ids never pushes a real page out of the cache, and none is brotli-compressed", async () => {
    const portal = await build({ MISS_RATE_PER_MIN: "0", CACHE_MAX_MB: "1" });
    await untilCached(portal, "/portal/message/news/1", VISITOR);
    const sample = await get(portal, "/portal/message/news/900000", ATTACKER);
    expect(sample.status).toBe(404);
    // Enough unknown ids to fill the whole byte bound (each entry holds more than its body).
    const flood = Math.ceil((1.25 * 1024 * 1024) / Buffer.byteLength(sample.text));
    for (let at = 0; at < flood; at += 8) {
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          get(portal, `/portal/message/news/${900001 + at + i}`, ATTACKER, { "Accept-Encoding": "br, gzip" }),
        ),
      );
    }
    const real = await get(portal, "/portal/message/news/1", VISITOR);
    expect(real.headers["x-page-cache"]).toBe("HIT");
    expect(real.text).toContain("真实新闻");

    // A not-found page is still kept (a scanner asking again gets it without a render), in a cheap coding only.
    await untilCached(portal, "/portal/message/news/900000", ATTACKER);
    const again = await get(portal, "/portal/message/news/900000", ATTACKER, { "Accept-Encoding": "br, gzip" });
    expect(again.status).toBe(404);
    expect(again.headers["content-encoding"]).toBe("gzip");
  }, 90_000);
});

describe("readiness", () => {
  it("makes one upstream request for any number of concurrent checks, and at most one a second", async () => {
    const portal = await build({ MISS_RATE_PER_MIN: "0" });
    const answers = await Promise.all(Array.from({ length: 30 }, () => get(portal, "/portal/readyz", VISITOR)));
    expect(answers.every((a) => a.status === 200 && a.body.status === "ready")).toBe(true);
    expect(upstream.count("/api/portal/sys/syscfg")).toBe(1);

    upstream.behaviour = "error";
    expect((await get(portal, "/portal/readyz", VISITOR)).status).toBe(200);
    expect(upstream.count("/api/portal/sys/syscfg")).toBe(1);
    clock.now += 1000;
    const down = await get(portal, "/portal/readyz", VISITOR);
    expect(down.status).toBe(503);
    expect(down.body.upstream.reachable).toBe(false);
    expect(upstream.count("/api/portal/sys/syscfg")).toBe(2);
  });
});
