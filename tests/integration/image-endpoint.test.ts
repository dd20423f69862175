/**
 * The image endpoint, /portal/_img?url=&w=&q=: what it resizes, what it refuses before
 * fetching, which sources it takes. Real app, real image origins on other ports serving real
 * PNG and JPEG bytes made with sharp here, real sharp resizes, a real disk cache folder.
 */
import path from "node:path";
import sharp from "sharp";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { imageUrl } from "../../shared/image-url.ts";
import { build, imageOriginsForEachTest, img, origin, other } from "../support/image-endpoint.ts";
import { serveBytes } from "../support/image-origin.ts";

imageOriginsForEachTest();

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
