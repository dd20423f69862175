/**
 * Per-test setup of the image endpoint's suites: two real image origins serving PNG and JPEG
 * bytes made with sharp, a fresh disk cache folder, and apps built on them that are closed
 * after each test. The origins and buffers are live bindings, new for every test.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import request from "supertest";
import { afterEach, beforeEach } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { imageUrl } from "../../shared/image-url.ts";
import { testConfig } from "./config.ts";
import { type ImageOrigin, serveBytes, startImageOrigin } from "./image-origin.ts";

export let origin: ImageOrigin;
export let other: ImageOrigin;
let cacheDir: string;
const apps: PortalApp[] = [];

export let png800: Buffer;
let jpeg640: Buffer;

/** An image of random pixels (so it does not compress), `width` × `height`, as PNG. */
export const noisePng = (width: number, height: number) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();

/** An app on the current origin and cache folder, closed after the test. */
export function build(env: Record<string, string> = {}, deps: Parameters<typeof createApp>[1] = {}): PortalApp {
  const app = createApp(
    testConfig({ API_BASE_URL: origin.url, IMAGE_CACHE_DIR: cacheDir, TRUST_PROXY: "loopback", MISS_RATE_PER_MIN: "0", ...env }),
    deps,
  );
  apps.push(app);
  return app;
}

/** Closes every app built so far, as a restart of the site does. */
export function closeApps(): void {
  for (const app of apps.splice(0)) app.portal.close();
}

/** A new, empty origin in place of one a test closed, so that the next teardown has one to close. */
export async function reopenOrigin(): Promise<void> {
  origin = await startImageOrigin();
}

export const img = (app: PortalApp, src: string, width = 384, accept?: string) => {
  const req = request(app)
    .get(imageUrl(src, width as 384))
    .buffer(true);
  return accept ? req.set("Accept", accept) : req;
};

/** Starts the origins and the cache folder before each test of the calling file, and ends them after it. */
export function imageOriginsForEachTest(): void {
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
    closeApps();
    await origin.close();
    await other.close();
    await rm(cacheDir, { recursive: true, force: true });
  });
}
