/**
 * Addresses of the same-origin image endpoint, `/portal/_img?url=&w=&q=` (the Next.js
 * image optimizer's interface). The server accepts only these widths and qualities, so
 * the pages and the endpoint share one list and a crawler cannot ask for a new variant
 * per pixel.
 */
import { BASE_PATH } from "./routes.ts";

export const IMAGE_PATH = `${BASE_PATH}/_img`;

/** Phone, tablet and desktop widths at 1x and 2x, as Next.js picks its device sizes. */
export const IMAGE_WIDTHS = [64, 128, 256, 384, 640, 828, 1080, 1280, 1920] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

export const IMAGE_QUALITIES = [50, 75, 90] as const;
export type ImageQuality = (typeof IMAGE_QUALITIES)[number];
export const DEFAULT_IMAGE_QUALITY: ImageQuality = 75;

/** One variant of `src` at `width`; a `data:` URL is already inline and stays as it is. */
export function imageUrl(src: string, width: ImageWidth, quality: ImageQuality = DEFAULT_IMAGE_QUALITY): string {
  if (src.startsWith("data:")) return src;
  return `${IMAGE_PATH}?url=${encodeURIComponent(src)}&w=${width}&q=${quality}`;
}

/** A `srcset` offering `src` at each of `widths`, for the browser to pick by `sizes`. */
export function imageSrcSet(src: string, widths: readonly ImageWidth[], quality: ImageQuality = DEFAULT_IMAGE_QUALITY): string {
  if (src.startsWith("data:")) return "";
  return widths.map((w) => `${imageUrl(src, w, quality)} ${w}w`).join(", ");
}
