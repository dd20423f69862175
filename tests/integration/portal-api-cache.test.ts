import { once } from "node:events";
import { createServer, get, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { testConfig } from "../support/config.ts";
import { settled } from "../support/settled.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const SYSCFG = "/api/portal/sys/syscfg";
const PARTNERS = "/api/portal/crm/partner/list";

let upstream: StandInUpstream;
let app: PortalApp;
const clock = { now: 1_000_000 };

function build(env: Record<string, string> = {}): PortalApp {
  app = createApp(testConfig({ API_BASE_URL: upstream.url, CACHE_TTL_MS: "1000", CACHE_STALE_MS: "5000", ...env }), {
    now: () => clock.now,
  });
  return app;
}

const settle = () => settled(app);

beforeEach(async () => {
  clock.now = 1_000_000;
  upstream = await startStandInUpstream({
    [SYSCFG]: { themePortal: "1,1", metaKeywords: "demo" },
    [PARTNERS]: [{ logo: "/a.svg", url: "https://a.example" }],
    "/api/portal/message/news/list": { pageDataList: [], totalCount: 0, totalPageCount: 0 },
  });
});

afterEach(async () => {
  app?.portal.close();
  await upstream.close();
});

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

/** The bytes as sent, with no client-side decoding. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}

describe("/api/portal fresh hits before Express", () => {
  /** Headers that belong to one response, or that only the Express path adds (its request id). */
  const perResponse = new Set([
    "date",
    "x-request-id",
    "connection",
    "keep-alive",
    "transfer-encoding",
    "content-length",
    "content-encoding",
  ]);
  const contentHeaders = (headers: Record<string, string>) =>
    Object.fromEntries(Object.entries(headers).filter(([name]) => !perResponse.has(name)));

  /** Asks until the answer comes from the prepared entry (no request id: Express never ran). */
  async function preparedHit(path: string, headers: Record<string, string> = {}) {
    for (let i = 0; i < 50; i++) {
      const res = await request(app).get(path).set(headers);
      if (res.headers["x-request-id"] === undefined) return res;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`${path} was never answered before Express`);
  }

  it("sends the same status, headers and body as the app, without reaching the upstream again", async () => {
    build();
    const list = "/api/portal/message/news/list?pageIndex=0&pageMaxCount=20";
    await request(app).get(list);
    const viaExpress = await request(app).get(list);
    const direct = await preparedHit(list);
    expect(viaExpress.headers["x-cache"]).toBe("HIT");
    expect(direct.status).toBe(200);
    expect(contentHeaders(direct.headers)).toEqual(contentHeaders(viaExpress.headers));
    expect(direct.headers["content-security-policy"]).toContain("object-src 'none'");
    expect(direct.body).toEqual(viaExpress.body);
    expect(upstream.count()).toBe(1);
    expect(app.portal.cache.stats().hits).toBe(2);
  });

  it("sends big answers in the coding asked for, compressed once, and 304 to a matching ETag", async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, logo: `/logo-${i}.svg`, url: `https://partner-${i}.example` }));
    upstream.routes.set(PARTNERS, items);
    build();
    const plain = await request(app).get(PARTNERS);
    expect(plain.headers["x-cache"]).toBe("MISS");
    await preparedHit(PARTNERS);
    const server = createServer(app).listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PARTNERS}`;
      const br = await rawGet(url, { "accept-encoding": "br, gzip" });
      const gzip = await rawGet(url, { "accept-encoding": "gzip" });
      const none = await rawGet(url, { "accept-encoding": "identity" });
      expect([br.headers["content-encoding"], gzip.headers["content-encoding"], none.headers["content-encoding"]]).toEqual([
        "br",
        "gzip",
        undefined,
      ]);
      expect(br.headers.vary).toBe("Accept-Encoding");
      expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(plain.body);
      expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual(plain.body);
      expect(br.body.length).toBeLessThan(none.body.length / 3);
      const revalidated = await rawGet(url, { "if-none-match": String(plain.headers.etag) });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body.length).toBe(0);
    } finally {
      server.close();
    }
    const head = await request(app).head(PARTNERS);
    expect(head.status).toBe(200);
    expect(head.headers["x-request-id"]).toBeUndefined();
    expect(upstream.count(PARTNERS)).toBe(1);
  });

  it("tags the identity, gzip and brotli bodies with one weak ETag, and answers 304 to it from any coding, in a list, or *", async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, logo: `/logo-${i}.svg`, url: `https://partner-${i}.example` }));
    upstream.routes.set(PARTNERS, items);
    build();
    const server = createServer(app).listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PARTNERS}`;
      const codings = ["br", "gzip", "identity"];
      // The miss (through Express), then hits (before it, once prepared).
      const answers = [];
      for (const coding of [...codings, ...codings]) answers.push(await rawGet(url, { "accept-encoding": coding }));
      expect(answers.map((a) => a.headers["content-encoding"] ?? "identity")).toEqual([...codings, ...codings]);
      const tags = answers.map((a) => String(a.headers.etag));
      // A strong tag must differ per coding (RFC 9110 8.8.3); these are one weak tag.
      expect(tags.every((tag) => tag.startsWith('W/"') && tag === tags[0])).toBe(true);
      const etag = tags[0] as string;
      for (const coding of codings) {
        for (const ifNoneMatch of [etag, etag.slice(2), `"other", ${etag}`, `W/"a,b", ${etag.slice(2)}`, "*"]) {
          const revalidated = await rawGet(url, { "accept-encoding": coding, "if-none-match": ifNoneMatch });
          expect([coding, ifNoneMatch, revalidated.status, revalidated.body.length]).toEqual([coding, ifNoneMatch, 304, 0]);
          expect(revalidated.headers.etag).toBe(etag);
        }
        const changed = await rawGet(url, { "accept-encoding": coding, "if-none-match": 'W/"other", "a,b"' });
        expect(changed.status).toBe(200);
      }
    } finally {
      server.close();
    }
    expect(upstream.count(PARTNERS)).toBe(1);
  });

  it("leaves stale entries, refusals and reader counts to the app", async () => {
    build();
    await request(app).get(SYSCFG);
    await preparedHit(SYSCFG);
    clock.now += 1500;
    const stale = await request(app).get(SYSCFG);
    expect(stale.headers["x-cache"]).toBe("STALE");
    expect(stale.headers["x-request-id"]).toBeDefined();
    const refused = await request(app).get("/api/portal/message/news/list?pageIndex=-1");
    expect(refused.status).toBe(400);
    await settle();
    expect(upstream.count(SYSCFG)).toBe(2);
  });
});
