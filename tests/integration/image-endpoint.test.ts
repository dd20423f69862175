/**
 * The image endpoint, /portal/_img?url=&w=&q=: real app, real image origins on other
 * ports serving real PNG and JPEG bytes made with sharp here, real sharp resizes, a real
 * disk cache folder.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, get as httpGet } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { FAILURE_MS, FRESH_MS } from "../../server/images/image-variants.ts";
import { MAX_INPUT_PIXELS } from "../../server/images/resize-image.ts";
import { imageUrl } from "../../shared/image-url.ts";
import { testConfig } from "../support/config.ts";
import { type ImageHandler, type ImageOrigin, serveBytes, startImageOrigin } from "../support/image-origin.ts";

let origin: ImageOrigin;
let other: ImageOrigin;
let cacheDir: string;
const apps: PortalApp[] = [];

let png800: Buffer;
let jpeg640: Buffer;

/** An image of random pixels (so it does not compress), `width` × `height`, as PNG. */
const noisePng = (width: number, height: number) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();

function build(env: Record<string, string> = {}, deps: Parameters<typeof createApp>[1] = {}): PortalApp {
  const app = createApp(
    testConfig({ API_BASE_URL: origin.url, IMAGE_CACHE_DIR: cacheDir, TRUST_PROXY: "loopback", MISS_RATE_PER_MIN: "0", ...env }),
    deps,
  );
  apps.push(app);
  return app;
}

const img = (app: PortalApp, src: string, width = 384, accept?: string) => {
  const req = request(app)
    .get(imageUrl(src, width as 384))
    .buffer(true);
  return accept ? req.set("Accept", accept) : req;
};

beforeEach(async () => {
  png800 ??= await sharp({ create: { width: 800, height: 600, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();
  jpeg640 ??= await sharp({ create: { width: 640, height: 480, channels: 3, background: "#cc6633" } })
    .jpeg()
    .toBuffer();
  origin = await startImageOrigin({ "/img/a.png": serveBytes(png800, "image/png"), "/img/b.jpg": serveBytes(jpeg640, "image/jpeg") });
  other = await startImageOrigin({ "/x.png": serveBytes(png800, "image/png") });
  cacheDir = await mkdtemp(path.join(tmpdir(), "portal-images-"));
});

afterEach(async () => {
  for (const app of apps.splice(0)) app.portal.close();
  await origin.close();
  await other.close();
  await rm(cacheDir, { recursive: true, force: true });
});

describe("resizing", () => {
  it("answers the width asked in AVIF, WebP or the source's format by Accept, with Vary: Accept and a long public Cache-Control", async () => {
    const app = build();
    const src = `${origin.url}/img/a.png`;
    const avif = await img(app, src, 384, "image/avif,image/webp,*/*");
    expect(avif.status).toBe(200);
    expect(avif.headers["content-type"]).toBe("image/avif");
    expect(avif.headers.vary).toMatch(/Accept/);
    expect(avif.headers["cache-control"]).toMatch(/^public, max-age=(\d+)/);
    expect(Number(/max-age=(\d+)/.exec(String(avif.headers["cache-control"]))?.[1])).toBeGreaterThanOrEqual(3600);
    expect(await sharp(avif.body).metadata()).toMatchObject({ format: "heif", width: 384, height: 288 });

    const webp = await img(app, src, 640, "image/webp,*/*");
    expect(webp.headers["content-type"]).toBe("image/webp");
    expect(await sharp(webp.body).metadata()).toMatchObject({ format: "webp", width: 640 });

    const png = await img(app, src, 256);
    expect(png.headers["content-type"]).toBe("image/png");
    expect(await sharp(png.body).metadata()).toMatchObject({ format: "png", width: 256 });

    const jpeg = await img(app, `${origin.url}/img/b.jpg`, 128, "image/*");
    expect(jpeg.headers["content-type"]).toBe("image/jpeg");
    expect(await sharp(jpeg.body).metadata()).toMatchObject({ format: "jpeg", width: 128 });
  });

  it("never enlarges: a width above the source's gives the source's width", async () => {
    const res = await img(build(), `${origin.url}/img/a.png`, 1920, "image/webp");
    expect(res.status).toBe(200);
    expect(await sharp(res.body).metadata()).toMatchObject({ width: 800, height: 600 });
  });

  it("reads a site-relative path from the embedded media and rasterises SVG", async () => {
    const res = await img(build({}, { mediaDir: path.resolve("content/media") }), "/portal/media/logo-01.848ff8f8.svg", 256, "image/webp");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/webp");
    expect(await sharp(res.body).metadata()).toMatchObject({ format: "webp", width: 256 });
    expect(origin.count()).toBe(0);
  });

  it("answers 304 to a client that has the variant", async () => {
    const app = build();
    const first = await img(app, `${origin.url}/img/a.png`, 384, "image/webp");
    const again = await request(app)
      .get(imageUrl(`${origin.url}/img/a.png`, 384))
      .set("Accept", "image/webp")
      .set("If-None-Match", String(first.headers.etag));
    expect(again.status).toBe(304);
  });

  it.each([
    ["a list naming it", (etag: string) => `"other", ${etag}`],
    ["its weak form", (etag: string) => `W/${etag}`],
    ["a wildcard", () => "*"],
  ])("answers 304 to If-None-Match with %s, 200 to a list without it", async (_what, header) => {
    const app = build();
    const first = await img(app, `${origin.url}/img/a.png`, 384, "image/webp");
    const ask = (value: string) =>
      request(app)
        .get(imageUrl(`${origin.url}/img/a.png`, 384))
        .set("Accept", "image/webp")
        .set("If-None-Match", value);
    expect((await ask(header(String(first.headers.etag)))).status).toBe(304);
    expect((await ask(`"other", W/"another"`)).status).toBe(200);
  });
});

describe("what is refused before anything is fetched", () => {
  it("refuses a host that is not allowed, never contacting it, and fetches from one listed in IMAGE_HOSTS", async () => {
    const refused = await img(build(), `${other.url}/x.png`);
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/not on an allowed image host/);
    expect(other.count()).toBe(0);

    const listed = await img(build({ IMAGE_HOSTS: other.url }), `${other.url}/x.png`, 256);
    expect(listed.status).toBe(200);
    expect(other.count("/x.png")).toBe(1);
  });

  it.each([
    ["an odd width", `url=%2Fimg%2Fa.png&w=500&q=75`, /w must be one of 64, 128/],
    ["an odd quality", `url=%2Fimg%2Fa.png&w=384&q=80`, /q must be one of 50, 75, 90/],
    ["no url", `w=384&q=75`, /url is required/],
    ["a repeated url", `url=%2Fimg%2Fa.png&url=%2Fimg%2Fb.jpg&w=384&q=75`, /url is given more than once/],
    ["an array shape", `url[]=%2Fimg%2Fa.png&w=384&q=75`, /unknown parameter "url\[\]"/],
    ["an object shape", `url[a]=%2Fimg%2Fa.png&w=384&q=75`, /unknown parameter/],
    ["an encoded slash", `url=%2Fimg%252F..%252Fa.png&w=384&q=75`, /encoded slashes/],
    ["a dot segment", `url=%2Fimg%2F..%2Fimg%2Fa.png&w=384&q=75`, /\. or \.\. path segments/],
    ["a protocol-relative url", `url=%2F%2Fevil.example%2Fa.png&w=384&q=75`, /absolute http\(s\) URL/],
    ["another scheme", `url=file%3A%2F%2F%2Fetc%2Fpasswd&w=384&q=75`, /absolute http\(s\) URL/],
    ["bad percent-encoding", `url=%E0%A4%A&w=384&q=75`, /not valid percent-encoding/],
  ])("refuses %s with a 400 naming it", async (_what, query, message) => {
    const res = await request(build()).get(`/portal/_img?${query}`);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(message);
    expect(origin.count()).toBe(0);
  });

  it("refuses credentials in the url, even on the upstream's origin", async () => {
    const res = await img(build(), `${origin.url.replace("//", "//user:pw@")}/img/a.png`);
    expect(res.status).toBe(400);
    expect(origin.count()).toBe(0);
  });
});

describe("sources on the site and the upstream's origin", () => {
  it.each([
    ["an API path on the site", "/api/portal/sys/syscfg", /must be an image file/],
    ["an API path on the upstream's origin", "{origin}/api/portal/sys/syscfg", /must be an image file/],
    ["a path that is no image file", "/img/a", /must be an image file/],
    ["a query on a site image", "/img/a.png?v=1", /must not have a query/],
    ["a query on the upstream's image", "{origin}/img/a.png?v=2", /must not have a query/],
    ["an empty query", "/img/a.png?", /must not have a query/],
    ["an SVG on the upstream", "/img/logo.svg", /IMAGE_ALLOW_SVG/],
  ])("refuses %s with a 400 and fetches nothing", async (_what, src, message) => {
    const res = await img(build(), src.replace("{origin}", origin.url));
    expect(res.status).toBe(400);
    expect(res.text).toMatch(message);
    expect(origin.count()).toBe(0);
  });

  it("reads a site image file from the upstream's origin; a listed image host keeps its own paths and queries", async () => {
    const app = build({ IMAGE_HOSTS: other.url });
    expect((await img(app, "/img/a.png", 128)).status).toBe(200);
    expect(origin.count("/img/a.png")).toBe(1);
    expect((await img(app, `${other.url}/x.png?size=large`, 128)).status).toBe(200);
    expect(other.count("/x.png")).toBe(1);
  });
});

describe("SVG sources", () => {
  const drawing = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#36c"/></svg>',
  );

  it("rasterises no SVG from the upstream or a listed host unless IMAGE_ALLOW_SVG=on, whatever its name says", async () => {
    origin.routes.set("/drawing.svg", serveBytes(drawing, "image/svg+xml"));
    origin.routes.set("/drawing.png", serveBytes(drawing, "image/png"));
    other.routes.set("/drawing", serveBytes(drawing, "image/svg+xml"));
    const sources = [`${origin.url}/drawing.png`, `${other.url}/drawing`];
    const off = build({ IMAGE_HOSTS: other.url });
    for (const src of sources) {
      const res = await img(off, src, 128, "image/webp");
      expect(res.status, src).toBe(502);
      expect(res.text).toMatch(/IMAGE_ALLOW_SVG/);
    }
    expect((await img(off, `${origin.url}/drawing.svg`, 128)).status).toBe(400);

    const on = build({ IMAGE_HOSTS: other.url, IMAGE_ALLOW_SVG: "on" });
    for (const src of [...sources, `${origin.url}/drawing.svg`]) {
      const res = await img(on, src, 128, "image/webp");
      expect(res.status, src).toBe(200);
      expect(await sharp(res.body).metadata()).toMatchObject({ format: "webp", width: 128 });
    }
  });
});

describe("a source that failed", () => {
  it("answers its failure again for a minute without reading it, for every variant, without charging the client; then reads it again", async () => {
    const clock = { now: 1_000_000 };
    origin.routes.set("/broken.png", serveBytes(Buffer.from("<html>not an image</html>"), "image/png"));
    const app = build({ MISS_RATE_PER_MIN: "60" }, { now: () => clock.now });
    const as = (req: request.Test) => req.set("X-Forwarded-For", "203.0.113.9");
    const src = `${origin.url}/broken.png`;
    expect((await as(img(app, src, 640, "image/webp"))).status).toBe(502);
    expect(origin.count("/broken.png")).toBe(1);
    // Every width and format of it, more than the client's burst of misses: all answered from the failure.
    for (const width of [64, 128, 256, 384, 640, 828, 1080, 1280, 1920]) {
      for (const accept of ["image/avif", "image/webp", "image/png"]) {
        expect((await as(img(app, src, width, accept))).status).toBe(502);
      }
    }
    expect(origin.count("/broken.png")).toBe(1);
    expect(app.portal.images.queue.started).toBe(1);

    clock.now += FAILURE_MS + 1;
    expect((await as(img(app, src, 384, "image/webp"))).status).toBe(502);
    expect(origin.count("/broken.png")).toBe(2);
  });
});

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

describe("sources that are too big", () => {
  it("refuses a 50 MB source by its Content-Length without reading its body", async () => {
    // The origin sends the head and never the body: an endpoint that waited for it would time out (504) instead.
    const hungUp = new Promise<void>((resolve) => {
      origin.routes.set("/huge.png", (_req, res) => {
        res.writeHead(200, { "content-type": "image/png", "content-length": 50 * 1024 * 1024 });
        res.flushHeaders();
        res.on("close", () => resolve());
      });
    });
    const app = build({ UPSTREAM_TIMEOUT_MS: "20000" });
    const res = await img(app, `${origin.url}/huge.png`);
    expect(res.status).toBe(502);
    expect(res.text).toMatch(/larger than IMAGE_MAX_MB/);
    expect(app.portal.images.queue.started).toBe(0);
    // The endpoint hung up on the source.
    await hungUp;
  });

  it("refuses a source that streams past IMAGE_MAX_MB without decoding it", async () => {
    let sent = 0;
    origin.routes.set("/endless.png", (_req, res) => {
      res.writeHead(200, { "content-type": "image/png" });
      const chunk = randomBytes(64 * 1024);
      const more = () => {
        // Bounded: 8 MB at most, whatever the endpoint does.
        while (!res.destroyed && sent < 8 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end();
      };
      more();
    });
    const app = build({ IMAGE_MAX_MB: "1" });
    const res = await img(app, `${origin.url}/endless.png`);
    expect(res.status).toBe(502);
    expect(res.text).toMatch(/larger than IMAGE_MAX_MB/);
    expect(app.portal.images.queue.started).toBe(0);
    expect(sent).toBeLessThan(8 * 1024 * 1024);
  });

  it("refuses a decompression bomb by its pixel count, from its header", async () => {
    origin.routes.set("/bomb.png", serveBytes(await pngClaiming(30_000, 30_000), "image/png"));
    const res = await img(build(), `${origin.url}/bomb.png`);
    expect(res.status).toBe(502);
    expect(res.text).toContain(`more than ${MAX_INPUT_PIXELS} pixels`);
  });

  it("answers 502 for bytes that are not an image, without echoing them", async () => {
    origin.routes.set("/page.png", serveBytes(Buffer.from("<html>secret at 10.0.0.7</html>"), "image/png"));
    const res = await img(build(), `${origin.url}/page.png`);
    expect(res.status).toBe(502);
    expect(res.text).not.toMatch(/secret|10\.0\.0\.7/);
  });
});

describe("redirects and failures", () => {
  it("does not follow a redirect to another host, even a listed one; follows one on the same origin", async () => {
    origin.routes.set("/away.png", (_req, res) => res.writeHead(302, { location: `${other.url}/x.png` }).end());
    origin.routes.set("/moved.png", (_req, res) => res.writeHead(301, { location: "/img/a.png" }).end());
    const app = build({ IMAGE_HOSTS: other.url });
    const away = await img(app, `${origin.url}/away.png`);
    expect(away.status).toBe(502);
    expect(away.text).toMatch(/redirects to another host/);
    expect(other.count()).toBe(0);

    const moved = await img(app, `${origin.url}/moved.png`, 128);
    expect(moved.status).toBe(200);
    expect(await sharp(moved.body).metadata()).toMatchObject({ width: 128 });
  });

  it("answers 404 for a missing source, without the source's words", async () => {
    const res = await img(build(), `${origin.url}/img/none.png`);
    expect(res.status).toBe(404);
    expect(res.text).not.toMatch(/10\.0\.0\.7/);
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
    for (const app of apps.splice(0)) app.portal.close();
    await origin.close();

    const restarted = build();
    const again = await img(restarted, src, 384, "image/webp");
    expect(again.status).toBe(200);
    expect(again.body.equals(first.body)).toBe(true);
    expect(restarted.portal.images.queue.started).toBe(0);
    // Nothing was kept for a variant never made: the down source is an error.
    expect((await img(restarted, src, 256, "image/webp")).status).toBe(502);
    origin = await startImageOrigin();
  });

  it("evicts the least recently used variants past IMAGE_CACHE_MB, in the order of use kept across a restart", async () => {
    // Noise does not compress: each variant is about 300 kB as PNG, three fit in 1 MB, four do not.
    for (const name of ["a", "b", "c", "d"]) origin.routes.set(`/n/${name}.png`, serveBytes(await noisePng(384, 260), "image/png"));
    const src = (name: string) => `${origin.url}/n/${name}.png`;
    const env = { IMAGE_CACHE_MB: "1" };
    const first = build(env);
    for (const name of ["a", "b", "c"]) expect((await img(first, src(name))).status).toBe(200);
    expect(first.portal.images.disk.bytes).toBeLessThanOrEqual(1024 * 1024);
    for (const app of apps.splice(0)) app.portal.close();

    // After a restart, a is read from disk (used again), then d pushes out the least recently used: b.
    const second = build(env);
    expect((await img(second, src("a"))).status).toBe(200);
    expect(second.portal.images.queue.started).toBe(0);
    expect((await img(second, src("d"))).status).toBe(200);
    expect(second.portal.images.disk.bytes).toBeLessThanOrEqual(1024 * 1024);
    for (const app of apps.splice(0)) app.portal.close();
    await origin.close();

    const third = build(env);
    const statuses = Object.fromEntries(await Promise.all(["a", "b", "c", "d"].map(async (n) => [n, (await img(third, src(n))).status])));
    expect(statuses).toEqual({ a: 200, b: 502, c: 200, d: 200 });
    origin = await startImageOrigin();
  });
});

describe("freshness and failures of the source", () => {
  it("asks the source again after the variant's freshness with its ETag, resizes nothing when unchanged, and serves the kept copy while the source fails", async () => {
    const clock = { now: 1_000_000 };
    const app = build({ CACHE_STALE_MS: "60000" }, { now: () => clock.now });
    const src = `${origin.url}/img/a.png`;
    const first = await img(app, src, 256, "image/webp");
    expect(first.headers["x-cache"]).toBe("MISS");

    // Past its freshness: answered stale at once while the source is asked whether it changed (304: it did not).
    clock.now += FRESH_MS + 1;
    expect((await img(app, src, 256, "image/webp")).headers["x-cache"]).toBe("STALE");
    await app.portal.images.memory.idle();
    expect(origin.count("/img/a.png")).toBe(2);
    expect(app.portal.images.queue.started).toBe(1);
    expect((await img(app, src, 256, "image/webp")).headers["x-cache"]).toBe("HIT");

    // The source fails: past freshness and past the memory's stale window, the copy on disk still answers.
    origin.routes.set("/img/a.png", (_req, res) => res.writeHead(500, { "content-type": "text/plain" }).end("down at 10.0.0.7"));
    clock.now += FRESH_MS + 120_000;
    const kept = await img(app, src, 256, "image/webp");
    expect(kept.status).toBe(200);
    expect(kept.body.equals(first.body)).toBe(true);
    expect(origin.count("/img/a.png")).toBe(3);
  });

  it("reads an absolute URL on PUBLIC_ORIGIN as the site path it names", async () => {
    const app = build({ PUBLIC_ORIGIN: "https://www.example.com" }, { mediaDir: path.resolve("content/media") });
    const res = await img(app, "https://www.example.com/portal/media/logo-01.848ff8f8.svg", 128, "image/webp");
    expect(res.status).toBe(200);
    expect(await sharp(res.body).metadata()).toMatchObject({ width: 128 });
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

/** A real 1 × 1 PNG whose header claims `width` × `height`: what a decompression bomb's header looks like. */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: "#000" } })
      .png()
      .toBuffer(),
  );
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}
