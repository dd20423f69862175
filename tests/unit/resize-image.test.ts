/**
 * What a visitor's browser receives for one photograph (a 1920 px JPEG: smooth gradients
 * under fine grain, as the bench's source, since the demo's slides are flat graphics) at
 * each listed quality: AVIF, when the browser takes it, is never heavier than the WebP it
 * would otherwise get, and no variant is wider than asked.
 */
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { resizeImage } from "../../server/images/resize-image.ts";
import { IMAGE_QUALITIES } from "../../shared/image-url.ts";

const plain = { allowSvg: false };
let photo: Buffer;

beforeAll(async () => {
  const [width, height] = [1920, 1280];
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 1;
  for (let i = 0; i < pixels.length; i += 3) {
    const [x, y] = [(i / 3) % width, Math.floor(i / 3 / width)];
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const grain = (seed / 0x7fffffff - 0.5) * 24;
    pixels[i] = 128 + 100 * Math.sin(x / 170) + grain;
    pixels[i + 1] = 128 + 100 * Math.cos(y / 130) + grain;
    pixels[i + 2] = 128 + 100 * Math.sin((x + y) / 240) + grain;
  }
  photo = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
});

describe("resizing a photograph", () => {
  it.each(IMAGE_QUALITIES.map((quality) => ({ quality })))("sends AVIF no heavier than WebP at quality $quality", async ({ quality }) => {
    const [avif, webp] = await Promise.all([
      resizeImage(photo, 828, quality, "avif", plain),
      resizeImage(photo, 828, quality, "webp", plain),
    ]);
    expect(avif.format).toBe("avif");
    expect(webp.format).toBe("webp");
    expect(avif.body.length).toBeLessThanOrEqual(webp.body.length);
    expect((await sharp(avif.body).metadata()).width).toBe(828);
  });
});

describe("a drawing that would take the resize slot for long", () => {
  /** Blurs and dilations over a large canvas: seconds of rasterising on one core for a few hundred bytes. */
  const filters = Array.from(
    { length: 2 },
    (_, n) => `<feGaussianBlur stdDeviation="${50 + n}"/><feMorphology operator="dilate" radius="40"/>`,
  );
  const drawing = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><filter id="f" x="0" y="0" width="1" height="1">${filters.join("")}</filter><rect width="2000" height="2000" fill="red" filter="url(#f)"/></svg>`,
  );

  it("is refused unless SVG is allowed, before anything is drawn", async () => {
    await expect(resizeImage(drawing, 640, 75, "webp", { allowSvg: false })).rejects.toMatchObject({
      status: 502,
      message: expect.stringMatching(/IMAGE_ALLOW_SVG/),
    });
  });

  it("is stopped at the resize deadline, with an answer that says so", async () => {
    await expect(resizeImage(drawing, 640, 75, "webp", { allowSvg: true, deadlineS: 1 })).rejects.toMatchObject({
      status: 502,
      message: "the image source took longer than 1 s to resize",
    });
  });
});
