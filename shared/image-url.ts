/** Addresses of the image endpoint: only these widths and qualities, so a crawler cannot ask for a variant per pixel (docs/behaviour.md#images). */
import { BASE_PATH } from "./page-route.ts";

export const IMAGE_PATH = `${BASE_PATH}/_img`;

export const IMAGE_WIDTHS = [64, 128, 256, 384, 640, 828, 1080, 1280, 1920] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];
const LARGEST_WIDTH: ImageWidth = 1920;

export const IMAGE_QUALITIES = [50, 75, 90] as const;
export type ImageQuality = (typeof IMAGE_QUALITIES)[number];
const DEFAULT_IMAGE_QUALITY: ImageQuality = 75;

/** The address of one variant, its source already encoded for the query: a srcset encodes it once for all its widths. */
const variantUrl = (encodedSrc: string, width: ImageWidth, quality: ImageQuality) =>
  `${IMAGE_PATH}?url=${encodedSrc}&w=${width}&q=${quality}`;

const srcSetOf = (encodedSrc: string, widths: readonly ImageWidth[], quality: ImageQuality) =>
  widths.map((w) => `${variantUrl(encodedSrc, w, quality)} ${w}w`).join(", ");

export function imageUrl(src: string, width: ImageWidth, quality: ImageQuality = DEFAULT_IMAGE_QUALITY): string {
  if (src.startsWith("data:")) return src;
  return variantUrl(encodeURIComponent(src), width, quality);
}

export function imageSrcSet(src: string, widths: readonly ImageWidth[], quality: ImageQuality = DEFAULT_IMAGE_QUALITY): string {
  if (src.startsWith("data:")) return "";
  return srcSetOf(encodeURIComponent(src), widths, quality);
}

export function isImageSource(src: string): boolean {
  return /^(https?:\/\/|\/(?!\/))/i.test(src);
}

/** From the first width that fills `min` to the first that fills `max` twice (1x to 2x screens). */
function widthsForBox(min: number, max: number): ImageWidth[] {
  const largest = IMAGE_WIDTHS.find((w) => w >= max * 2) ?? LARGEST_WIDTH;
  const smallest = IMAGE_WIDTHS.find((w) => w >= min) ?? largest;
  return IMAGE_WIDTHS.filter((w) => w >= smallest && w <= largest);
}

export function responsiveImage(src: string, min: number, max: number): { src: string; srcSet: string } {
  if (src.startsWith("data:")) return { src, srcSet: "" };
  const widths = widthsForBox(min, max);
  const fallback = widths.find((w) => w >= max) ?? LARGEST_WIDTH;
  const encoded = encodeURIComponent(src);
  return { src: variantUrl(encoded, fallback, DEFAULT_IMAGE_QUALITY), srcSet: srcSetOf(encoded, widths, DEFAULT_IMAGE_QUALITY) };
}

export const DETAIL_IMAGE_SIZES = "(max-width: 848px) calc(100vw - 48px), 800px";
