/**
 * The page cache. What needs the app's own state (its clock, stores under way, metrics, a
 * counted renderer) runs it in the test's process with the production renderer from dist/;
 * the rest is asked of the built site, started as `npm start` starts it.
 */
import { createServer, get, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { createProdRenderer } from "../../server/render/prod-renderer.ts";
import { withBuiltSite } from "../support/built-site.ts";
import { testConfig } from "../support/config.ts";
import { settled } from "../support/settled.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const ABOUT = "/portal/about/index.html";
let upstream: StandInUpstream;
let app: PortalApp;
const clock = { now: 5_000_000 };

/** The variables of the site under test, as the process reads them. */
const siteEnv = (env: Record<string, string> = {}) => ({
  API_BASE_URL: upstream.url,
  CACHE_TTL_MS: "10000",
  CACHE_STALE_MS: "60000",
  ...env,
});

async function build(env: Record<string, string> = {}): Promise<PortalApp> {
  app = createApp(testConfig(siteEnv(env)), {
    renderer: await createProdRenderer(),
    now: () => clock.now,
  });
  return app;
}

const settle = () => settled(app);

/** The bytes as sent, with no client-side decoding. */
function rawGet(url: string, acceptEncoding: string): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}

/** The app on a real listener (raw bytes, no client-side decoding): the URL of `path` on it. */
async function listening(path: string): Promise<{ url: string; close: () => void }> {
  const server = createServer(app).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, close: () => server.close() };
}

beforeEach(async () => {
  clock.now = 5_000_000;
  upstream = await startStandInUpstream({
    "/api/portal/sys/syscfg": { themePortal: "1,1" },
    "/api/portal/sys/sysauthor": { name: "缓存公司", fname: "缓存科技有限公司" },
    "/api/portal/sys/menu/list": [],
    "/api/portal/plan/company": { brief: "<p>第一版介绍</p>" },
  });
});

afterEach(async () => {
  app?.portal.close();
  await upstream.close();
});

describe("page cache", () => {
  it("sends a page read again smaller once the server has been idle, the same page once decoded", async () => {
    await build();
    const { url, close } = await listening(ABOUT);
    try {
      await rawGet(url, "br");
      // The page is kept once compressed.
      await settle();
      const stored = await rawGet(url, "br");
      expect(stored.headers["x-page-cache"]).toBe("HIT");
      const plain = await rawGet(url, "identity");
      // Nothing in flight, for longer than the recompressor waits.
      clock.now += 3000;
      while (app.portal.recompressor.recompressed === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const better = await rawGet(url, "br");
      expect(better.body.length).toBeLessThan(stored.body.length);
      expect(Number(better.headers["content-length"])).toBe(better.body.length);
      expect(brotliDecompressSync(better.body).equals(plain.body)).toBe(true);
    } finally {
      close();
    }
  });

  it("sends a miss as the cache keeps it: compressed once, the very bytes the next visitor's hit gets", async () => {
    await build();
    const { url, close } = await listening(ABOUT);
    try {
      for (const coding of ["br", "gzip"]) {
        // A page of its own for each coding: the Chinese one, then the English one.
        const page = coding === "br" ? url : url.replace("/portal/", "/portal/en/");
        const miss = await rawGet(page, coding);
        await settle();
        const hit = await rawGet(page, coding);
        expect([miss.headers["x-page-cache"], hit.headers["x-page-cache"]]).toEqual(["MISS", "HIT"]);
        expect(miss.headers["content-encoding"]).toBe(coding);
        expect(miss.body.equals(hit.body)).toBe(true);
        expect(miss.headers.etag).toBe(hit.headers.etag);
      }
    } finally {
      close();
    }
  });

  it("answers a repeated page from the cache, before Express, without reaching the upstream", async () => {
    await build();
    const first = await request(app).get(ABOUT);
    await settle();
    const before = upstream.count();
    const second = await request(app).get(`${ABOUT}?utm_source=mail`);
    expect(first.headers["x-page-cache"]).toBe("MISS");
    expect(second.headers["x-page-cache"]).toBe("HIT");
    expect(second.text).toBe(first.text);
    expect(second.text).toContain("第一版介绍");
    expect(upstream.count()).toBe(before);
    expect(second.headers["x-request-id"]).toBeUndefined();
    for (const name of ["content-security-policy", "x-content-type-options", "referrer-policy", "vary", "content-type"]) {
      expect(second.headers[name], name).toBe(first.headers[name]);
    }
    expect(second.headers["cache-control"]).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=60, stale-if-error=60$/);
  });

  it("counts each answer once in the figures an operator reads: one miss, then hits and stale answers", async () => {
    await build();
    await request(app).get(ABOUT);
    await settle();
    await request(app).get(ABOUT);
    clock.now += 15_000;
    await request(app).get(ABOUT);
    expect(app.portal.pageCache?.stats()).toMatchObject({ misses: 1, hits: 1, stale: 1, entries: 1 });
  });

  it("times where a rendered page spent its time (data, render, compression) in the metrics, and a hit adds nothing", async () => {
    await build();
    const stageCounts = async () => {
      const text = await app.portal.metrics.registry.metrics();
      const count = (stage: string) =>
        Number(new RegExp(`^portal_page_render_stage_seconds_count\\{stage="${stage}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
      return { data: count("data"), render: count("render"), compress: count("compress") };
    };
    await request(app).get(ABOUT);
    await settle();
    expect(await stageCounts()).toEqual({ data: 1, render: 1, compress: 1 });
    const hit = await request(app).get(ABOUT);
    expect(hit.headers["x-page-cache"]).toBe("HIT");
    expect(await stageCounts()).toEqual({ data: 1, render: 1, compress: 1 });
    // The sums are times, not counts: each stage took some time, and less than the test did.
    const text = await app.portal.metrics.registry.metrics();
    const renderSeconds = Number(/^portal_page_render_stage_seconds_sum\{stage="render"\} (\S+)$/m.exec(text)?.[1]);
    expect(renderSeconds).toBeGreaterThan(0);
    expect(renderSeconds).toBeLessThan(60);
  });

  it("sends brotli and gzip prepared once per entry, and 304 for a matching ETag", async () => {
    await build();
    const server = createServer(app).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const plain = await rawGet(`${origin}${ABOUT}`, "identity");
      await settle();
      const br = await rawGet(`${origin}${ABOUT}`, "gzip, deflate, br");
      const gz = await rawGet(`${origin}${ABOUT}`, "gzip");
      expect(br.headers["x-page-cache"]).toBe("HIT");
      expect(br.headers["content-encoding"]).toBe("br");
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(brotliDecompressSync(br.body).toString()).toBe(plain.body.toString());
      expect(gunzipSync(gz.body).toString()).toBe(plain.body.toString());
      expect(br.body.length).toBeLessThan(plain.body.length / 3);
      const etag = br.headers.etag as string;
      expect(etag).toMatch(/^W\/"/);
      const revalidated = await request(app).get(ABOUT).set("If-None-Match", etag);
      expect(revalidated.status).toBe(304);
    } finally {
      server.close();
    }
  });

  it("never keeps a page past the freshness of its data: stale, one re-render, then the new page", async () => {
    await build();
    await request(app).get(ABOUT);
    await settle();
    upstream.routes.set("/api/portal/plan/company", { brief: "<p>第二版介绍</p>" });
    clock.now += 11_000;
    const stale = await request(app).get(ABOUT);
    expect(stale.headers["x-page-cache"]).toBe("STALE");
    expect(stale.text).toContain("第一版介绍");
    // Stale pages are answered before Express too, while their one re-render runs.
    expect(stale.headers["x-request-id"]).toBeUndefined();
    await settle();
    // The API entry was stale too, so the first re-render may still see the old data; once it refreshes, the page follows.
    clock.now += 1;
    await request(app).get(ABOUT);
    await settle();
    const fresh = await request(app).get(ABOUT);
    expect(fresh.text).toContain("第二版介绍");
  });

  it("renders a page once for a burst of concurrent requests, even with the page cache off", async () => {
    const renderer = await createProdRenderer();
    let renders = 0;
    let arrived = 0;
    let burst = 0;
    // A render that lasts until the whole burst has arrived, as under real load.
    const slowRender: typeof renderer.render = async (input) => {
      renders++;
      while (arrived < burst) await new Promise((r) => setImmediate(r));
      return renderer.render(input);
    };
    app = createApp(testConfig({ API_BASE_URL: upstream.url, PAGE_CACHE: "off" }), { renderer: { ...renderer, render: slowRender } });
    await request(app).get(ABOUT);
    const server = createServer(app).listen(0, "127.0.0.1");
    server.on("request", () => arrived++);
    await new Promise((resolve) => server.once("listening", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${ABOUT}`;
    try {
      renders = 0;
      burst = 20;
      const answers = await Promise.all(Array.from({ length: 20 }, () => rawGet(url, "identity")));
      expect(answers.map((a) => a.body.toString().includes("第一版介绍"))).toEqual(Array(20).fill(true));
      expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
      expect(answers[0]?.headers["x-page-cache"]).toBeUndefined();
      expect(renders).toBe(1);
      // Later requests get a new render: nothing is kept once the burst is answered.
      renders = 0;
      burst = arrived + 1;
      await rawGet(url, "identity");
      expect(renders).toBe(1);
    } finally {
      server.close();
    }
  });

  it("keeps languages apart by address, and varies by nothing a request's headers say of a language", async () => {
    await build();
    const zh = await request(app).get(ABOUT);
    await settle();
    const en = await request(app).get(`/portal/en${ABOUT.slice("/portal".length)}`);
    const zhAgain = await request(app).get(ABOUT).set("Cookie", "portal_lang=en");
    expect(zh.text).toContain('<html lang="zh-CN">');
    expect(en.text).toContain('<html lang="en">');
    expect(en.headers["x-page-cache"]).toBe("MISS");
    expect(zhAgain.text).toContain('<html lang="zh-CN">');
    expect(zhAgain.headers["x-page-cache"]).toBe("HIT");
    expect(zh.headers.vary).toBe("Accept-Encoding");
  });

  it("does not keep a page whose data failed", async () => {
    const [failed, next] = await withBuiltSite(siteEnv(), async (site) => {
      upstream.behaviour = "error";
      const failed = await request(site.origin).get(ABOUT);
      upstream.behaviour = "ok";
      return [failed, await request(site.origin).get(ABOUT)];
    });
    expect(failed.status).toBe(502);
    expect(failed.headers["cache-control"]).toBe("no-store");
    expect(next.status).toBe(200);
    expect(next.headers["x-page-cache"]).toBe("MISS");
  });

  it("can be switched off", async () => {
    const again = await withBuiltSite(siteEnv({ PAGE_CACHE: "off" }), async (site) => {
      await request(site.origin).get(ABOUT);
      return request(site.origin).get(ABOUT);
    });
    expect(again.headers["x-page-cache"]).toBeUndefined();
    expect(again.headers["cache-control"]).toBe("no-cache");
  });

  it("renders once for concurrent misses of one page", async () => {
    await build();
    const answers = await Promise.all(Array.from({ length: 20 }, () => request(app).get(ABOUT)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(upstream.count("/api/portal/plan/company")).toBe(1);
    // The requests that joined the render under way are counted as de-duplications.
    const joined = /^portal_inflight_deduplications_total\{source="page"\} (\d+)$/m.exec(await app.portal.metrics.registry.metrics());
    expect(Number(joined?.[1])).toBeGreaterThan(0);
  });
});
