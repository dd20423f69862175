/** One resize with sharp, within a pixel limit and a deadline; SVG is rasterised, never sent (docs/behaviour.md#images, "Resizing"). */
import type { Metadata, Sharp } from "sharp";
import { HttpError } from "../http/errors.ts";
import type { OutputChoice } from "./output-format.ts";

type SharpFactory = typeof import("sharp")["default"];
let loading: Promise<SharpFactory> | undefined;

/** At the first resize: libvips costs a process that may never resize megabytes. */
function loadSharp(): Promise<SharpFactory> {
  loading ??= import("sharp").then(({ default: sharp }): SharpFactory => {
    // One thread per resize, so the queue's slots count cores; no operation cache, as every resize is of new bytes.
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  return loading;
}

/** Checked from the header: a larger source is refused, not decoded. */
export const MAX_INPUT_PIXELS = 50_000_000;

type ImageFormat = "avif" | "webp" | "jpeg" | "png" | "gif";

/** libvips checks it between regions: one slow region may overrun it (docs/behaviour.md#images). */
const RESIZE_DEADLINE_S = 10;

interface ResizeOptions {
  /** IMAGE_ALLOW_SVG, or the embedded media's own files; otherwise SVG is refused. */
  allowSvg: boolean;
  deadlineS?: number;
}

interface ResizedImage {
  body: Buffer;
  format: ImageFormat;
}

/** What each source format is sent as when the client takes neither AVIF nor WebP. */
const SOURCE_OUTPUT: Record<string, ImageFormat> = { jpeg: "jpeg", png: "png", webp: "webp", gif: "gif", heif: "avif", svg: "png" };

const notAnImage = () => new HttpError(502, "the image source is not a JPEG, PNG, WebP, GIF, AVIF or SVG image");
const tooManyPixels = () => new HttpError(502, `the image source has more than ${MAX_INPUT_PIXELS} pixels`);

const svgRefused = () => new HttpError(502, "the image source is an SVG drawing, which is rasterised only with IMAGE_ALLOW_SVG=on");

export async function resizeImage(
  source: Buffer,
  width: number,
  quality: number,
  choice: OutputChoice,
  resize: ResizeOptions,
): Promise<ResizedImage> {
  const sharp = await loadSharp();
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" as const };
  let meta: Metadata;
  try {
    meta = await sharp(source, options).metadata();
  } catch (err) {
    throw refusal(err);
  }
  const sourceOutput = meta.format ? SOURCE_OUTPUT[meta.format] : undefined;
  if (!sourceOutput || !meta.width || !meta.height) throw notAnImage();
  if (meta.format === "svg" && !resize.allowSvg) throw svgRefused();
  const density = meta.format === "svg" ? svgDensity(meta, width) : undefined;
  if (meta.width * meta.height * ((density ?? 72) / 72) ** 2 > MAX_INPUT_PIXELS) throw tooManyPixels();
  const format = choice === "source" ? sourceOutput : choice;
  const deadlineS = resize.deadlineS ?? RESIZE_DEADLINE_S;
  try {
    const pipeline = sharp(source, { ...options, density })
      .rotate()
      .resize({ width, withoutEnlargement: true });
    const body = await encoded(pipeline, format, quality).timeout({ seconds: deadlineS }).toBuffer();
    return { body, format };
  } catch (err) {
    throw refusal(err, deadlineS);
  }
}

/** Never sharp's own words. */
function refusal(err: unknown, deadlineS = RESIZE_DEADLINE_S): HttpError {
  const message = err instanceof Error ? err.message : "";
  if (/pixel limit/i.test(message)) return tooManyPixels();
  // Sharp says "timeout: N% complete", and libvips, stopped mid-way, may speak first of the image it killed.
  if (/\btimeout\b|killed for image/i.test(message))
    return new HttpError(502, `the image source took longer than ${deadlineS} s to resize`);
  return notAnImage();
}

/** librsvg's dpi (default 72) that makes the drawing `width` wide, never below the default. */
function svgDensity(meta: Metadata, width: number): number {
  return Math.max(72, Math.min(72 * 32, (72 * width) / (meta.width as number)));
}

/** AVIF's scale is not WebP's: these match the WebP in PSNR (docs/behaviour.md#images, "Quality"). */
const AVIF_QUALITY: Record<number, number> = { 50: 45, 75: 50, 90: 72 };

function encoded(pipeline: Sharp, format: ImageFormat, quality: number): Sharp {
  switch (format) {
    case "avif":
      return pipeline.avif({ quality: AVIF_QUALITY[quality] ?? quality, effort: 3 });
    case "webp":
      return pipeline.webp({ quality });
    case "jpeg":
      return pipeline.jpeg({ quality, mozjpeg: true });
    case "png":
      return pipeline.png({ compressionLevel: 8 });
    case "gif":
      return pipeline.gif();
  }
}
