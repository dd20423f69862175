/**
 * One resize: the source's bytes to `width` pixels wide (never wider than the source),
 * re-encoded as AVIF, WebP or the source's own format. Sharp (libvips) decodes within a
 * pixel limit checked from the header before any decoding, stops at the first decoding
 * error, and reads EXIF orientation; what comes out carries no metadata. SVG sources are
 * rasterised, only when allowed (librsvg runs no scripts and loads no external resources,
 * but a drawing of filter effects can take minutes), at the density that gives the
 * requested width, and sent as PNG when the client takes neither AVIF nor WebP: no SVG
 * ever leaves the endpoint. Every resize has a deadline.
 */
import type { Metadata, Sharp } from "sharp";
import { HttpError } from "../http/errors.ts";
import type { OutputChoice } from "./output-format.ts";

type SharpFactory = typeof import("sharp")["default"];
let loading: Promise<SharpFactory> | undefined;

/** Sharp, loaded at the first resize: libvips adds about 20 MB to a process that may never resize. */
function loadSharp(): Promise<SharpFactory> {
  loading ??= import("sharp").then(({ default: sharp }): SharpFactory => {
    // One libvips thread per resize: the resize queue's slots then count cores. No libvips operation
    // cache: every resize is of new bytes (results are kept by the variant caches), so it would only hold memory.
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  return loading;
}

/** Decoded pixels a source may have (about 8000 × 6000): past it the source is refused, not decoded. */
export const MAX_INPUT_PIXELS = 50_000_000;

export type ImageFormat = "avif" | "webp" | "jpeg" | "png" | "gif";

/**
 * The longest a resize may take (a large photograph takes about a second on one core).
 * libvips checks it between the regions it computes, so one slow region (an SVG's filter
 * drawn at once) may overrun it before the resize is stopped.
 */
export const RESIZE_DEADLINE_S = 10;

export interface ResizeOptions {
  /** SVG sources are rasterised (IMAGE_ALLOW_SVG, or the embedded media's own files); otherwise refused. */
  allowSvg: boolean;
  deadlineS?: number;
}

export interface ResizedImage {
  body: Buffer;
  format: ImageFormat;
}

/** Source formats accepted, and what each is sent as when the client takes neither AVIF nor WebP. */
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

/** What a sharp failure tells the client: too many pixels, too slow, or not an image it can read; never sharp's own words. */
function refusal(err: unknown, deadlineS = RESIZE_DEADLINE_S): HttpError {
  const message = err instanceof Error ? err.message : "";
  if (/pixel limit/i.test(message)) return tooManyPixels();
  // Sharp says "timeout: N% complete", and libvips, stopped mid-way, may speak first of the image it killed.
  if (/\btimeout\b|killed for image/i.test(message))
    return new HttpError(502, `the image source took longer than ${deadlineS} s to resize`);
  return notAnImage();
}

/** A vector drawn at the density (dpi, librsvg's default 72) that makes it `width` wide, never below the default. */
function svgDensity(meta: Metadata, width: number): number {
  return Math.max(72, Math.min(72 * 32, (72 * width) / (meta.width as number)));
}

/**
 * AVIF's quality scale is not WebP's or JPEG's: at the same number it keeps far more (a
 * 1920 px photograph at 75 came out twice the WebP's bytes). These are the AVIF qualities
 * that match the WebP at each listed quality in PSNR, measured on the demo slides.
 */
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
