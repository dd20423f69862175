/**
 * What a visitor's browser receives for one photograph (a demo slide, 1920 px JPEG) at
 * each listed quality: AVIF, when the browser takes it, is never heavier than the WebP it
 * would otherwise get, and no variant is wider than asked.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { resizeImage } from "../../server/images/resize-image.ts";
import { DEMO_MEDIA_DIR } from "../../server/project-root.ts";
import { IMAGE_QUALITIES } from "../../shared/image-url.ts";

const slide = readdirSync(DEMO_MEDIA_DIR).find((name) => /^slide-.*\.jpg$/.test(name));
const photo = readFileSync(path.join(DEMO_MEDIA_DIR, slide ?? "missing"));

describe("resizing a photograph", () => {
  it.each(IMAGE_QUALITIES.map((quality) => ({ quality })))("sends AVIF no heavier than WebP at quality $quality", async ({ quality }) => {
    const [avif, webp] = await Promise.all([resizeImage(photo, 828, quality, "avif"), resizeImage(photo, 828, quality, "webp")]);
    expect(avif.format).toBe("avif");
    expect(webp.format).toBe("webp");
    expect(avif.body.length).toBeLessThanOrEqual(webp.body.length);
    expect((await sharp(avif.body).metadata()).width).toBe(828);
  });
});
