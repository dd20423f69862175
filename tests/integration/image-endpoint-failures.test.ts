/**
 * The image endpoint when its source fails, redirects, is too big or goes stale: real app,
 * real image origins on other ports, real sharp, a real disk cache folder.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import sharp from "sharp";
import type request from "supertest";
import { describe, expect, it } from "vitest";
import { FAILURE_MS, FRESH_MS } from "../../server/images/image-variants.ts";
import { MAX_INPUT_PIXELS } from "../../server/images/resize-image.ts";
import { build, imageOriginsForEachTest, img, origin, other } from "../support/image-endpoint.ts";
import { serveBytes } from "../support/image-origin.ts";

imageOriginsForEachTest();

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
