/**
 * The image endpoint's caching and budgets: shared fetches and resizes, a page's images on a
 * cold cache, fetches beside the content API, the miss budget. Real app, real image origins
 * on other ports, real sharp, a real disk cache folder.
 */
import { createServer, get as httpGet } from "node:http";
import type { AddressInfo } from "node:net";
import type request from "supertest";
import { describe, expect, it } from "vitest";
import type { PortalApp } from "../../server/app.ts";
import { imageUrl } from "../../shared/image-url.ts";
import {
  build,
  closeApps,
  imageOriginsForEachTest,
  img,
  noisePng,
  origin,
  other,
  png800,
  reopenOrigin,
} from "../support/image-endpoint.ts";
import { type ImageHandler, serveBytes } from "../support/image-origin.ts";

imageOriginsForEachTest();

describe("image fetches beside the content API", () => {
  it("answers a visitor's API miss while images from an origin that never answers fill their allowance, and serves the upstream's images", async () => {
    // A listed image host that takes every request and answers none, until the end.
    const stuck: import("node:http").ServerResponse[] = [];
    const never: ImageHandler = (_req, res) => void stuck.push(res);
    const sources = Array.from({ length: 330 }, (_, n) => `/stuck/${n}.png`);
    for (const source of sources) other.routes.set(source, never);
    origin.routes.set("/api/portal/sys/syscfg", (_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ code: 0, msg: "ok", data: { themePortal: "1,1" } })),
    );
    const { get, close } = await listening(build({ IMAGE_HOSTS: other.url, UPSTREAM_TIMEOUT_MS: "60000" }));
    try {
      let answered = 0;
      const images = sources.map((source) =>
        get(imageUrl(`${other.url}${source}`, 384)).then((status) => {
          answered++;
          return status;
        }),
      );
      // The first answer is a refusal: every fetch the images may start is under way or waiting.
      while (answered === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await get("/api/portal/sys/syscfg?imgScope=0")).toBe(200);
      expect(await get(imageUrl("/img/a.png", 256))).toBe(200);
      for (const source of sources) other.routes.delete(source);
      for (const res of stuck.splice(0)) res.writeHead(404).end();
      const statuses = await Promise.all(images);
      expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });
});

describe("a page's images on a cold cache", () => {
  /** `count` distinct variants: `count / 3` sources at three widths each, as a page's images. */
  const variants = (prefix: string, count: number) => {
    for (let n = 0; n < count / 3; n++) origin.routes.set(`/${prefix}/${n}.png`, serveBytes(png800, "image/png"));
    return Array.from({ length: count }, (_, n) =>
      imageUrl(`/${prefix}/${Math.floor(n / 3)}.png`, ([256, 384, 640] as const)[n % 3] ?? 256),
    );
  };

  it("gives one visitor all of a page's 48 new variants at once on one core, with the default miss budget", async () => {
    // One resize at a time, as on a one-core machine: all 48 wait their turn.
    const { get, close } = await listening(build({ MISS_RATE_PER_MIN: "600" }, { imageResizeSlots: 1 }));
    try {
      const statuses = await Promise.all(variants("page", 48).map((target) => get(target, { "x-forwarded-for": "203.0.113.5" })));
      expect(statuses).toEqual(Array(48).fill(200));
    } finally {
      await close();
    }
  });

  it("refuses a client past its miss budget with 429, never with 503", async () => {
    const { get, close } = await listening(build({ MISS_RATE_PER_MIN: "600" }, { imageResizeSlots: 1 }));
    try {
      const statuses = await Promise.all(variants("flood", 120).map((target) => get(target, { "x-forwarded-for": "203.0.113.6" })));
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    } finally {
      await close();
    }
  });

  it("without a miss budget, refuses a flooding client past its share of the line (429) while another visitor's page all arrives", async () => {
    const { get, close } = await listening(build({ MISS_RATE_PER_MIN: "0" }, { imageResizeSlots: 1 }));
    try {
      const flood = Promise.all(variants("flood", 150).map((target) => get(target, { "x-forwarded-for": "203.0.113.6" })));
      const page = Promise.all(variants("page", 30).map((target) => get(target, { "x-forwarded-for": "198.51.100.7" })));
      expect(await page).toEqual(Array(30).fill(200));
      const flooded = await flood;
      expect(flooded.filter((status) => status === 429).length).toBeGreaterThan(0);
      expect(flooded.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe("caching", () => {
  it("makes one fetch and one resize for 20 concurrent requests of one variant", async () => {
    const app = build();
    const answers = await Promise.all(Array.from({ length: 20 }, () => img(app, `${origin.url}/img/a.png`, 640, "image/webp")));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
    expect(origin.count("/img/a.png")).toBe(1);
    expect(app.portal.images.queue.started).toBe(1);
    const hit = await img(app, `${origin.url}/img/a.png`, 640, "image/webp");
    expect(hit.headers["x-cache"]).toBe("HIT");
    expect(origin.count("/img/a.png")).toBe(1);
  });

  it("keeps a variant per format: AVIF and WebP of one width are two variants", async () => {
    const app = build();
    await img(app, `${origin.url}/img/a.png`, 640, "image/avif");
    await img(app, `${origin.url}/img/a.png`, 640, "image/webp");
    expect(app.portal.images.queue.started).toBe(2);
  });

  it("serves variants from disk after a restart while the source is down", async () => {
    const src = `${origin.url}/img/a.png`;
    const first = await img(build(), src, 384, "image/webp");
    expect(first.status).toBe(200);
    closeApps();
    await origin.close();

    const restarted = build();
    const again = await img(restarted, src, 384, "image/webp");
    expect(again.status).toBe(200);
    expect(again.body.equals(first.body)).toBe(true);
    expect(restarted.portal.images.queue.started).toBe(0);
    // Nothing was kept for a variant never made: the down source is an error.
    expect((await img(restarted, src, 256, "image/webp")).status).toBe(502);
    await reopenOrigin();
  });

  it("evicts the least recently used variants past IMAGE_CACHE_MB, in the order of use kept across a restart", async () => {
    // Noise does not compress: each variant is about 300 kB as PNG, three fit in 1 MB, four do not.
    for (const name of ["a", "b", "c", "d"]) origin.routes.set(`/n/${name}.png`, serveBytes(await noisePng(384, 260), "image/png"));
    const src = (name: string) => `${origin.url}/n/${name}.png`;
    const env = { IMAGE_CACHE_MB: "1" };
    const first = build(env);
    for (const name of ["a", "b", "c"]) expect((await img(first, src(name))).status).toBe(200);
    expect(first.portal.images.disk.bytes).toBeLessThanOrEqual(1024 * 1024);
    closeApps();

    // After a restart, a is read from disk (used again), then d pushes out the least recently used: b.
    const second = build(env);
    expect((await img(second, src("a"))).status).toBe(200);
    expect(second.portal.images.queue.started).toBe(0);
    expect((await img(second, src("d"))).status).toBe(200);
    expect(second.portal.images.disk.bytes).toBeLessThanOrEqual(1024 * 1024);
    closeApps();
    await origin.close();

    const third = build(env);
    const statuses = Object.fromEntries(await Promise.all(["a", "b", "c", "d"].map(async (n) => [n, (await img(third, src(n))).status])));
    expect(statuses).toEqual({ a: 200, b: 502, c: 200, d: 200 });
    await reopenOrigin();
  });
});

describe("the miss budget", () => {
  it("charges a client for each variant it makes the server fetch, never for a hit", async () => {
    const now = 5_000_000;
    const app = build({ MISS_RATE_PER_MIN: "60" }, { now: () => now });
    const as = (req: request.Test) => req.set("X-Forwarded-For", "203.0.113.7");
    const widths = [64, 128, 256, 384, 640, 828] as const;
    for (const w of widths) expect((await as(img(app, `${origin.url}/img/a.png`, w))).status).toBe(200);
    const fetched = origin.count();

    const refused = await as(img(app, `${origin.url}/img/a.png`, 1080));
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBeDefined();
    expect(origin.count()).toBe(fetched);

    for (const w of widths) expect((await as(img(app, `${origin.url}/img/a.png`, w))).status).toBe(200);
    expect(origin.count()).toBe(fetched);
    // Another client's budget is its own.
    expect((await img(app, `${origin.url}/img/a.png`, 1080).set("X-Forwarded-For", "198.51.100.20")).status).toBe(200);
  });
});

/** `app` on a real socket, and a GET of it on a connection of its own, resolving to the status. */
async function listening(app: PortalApp) {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    get: (target: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) =>
        httpGet(`${base}${target}`, { agent: false, headers }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        }).on("error", reject),
      ),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
