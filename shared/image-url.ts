/**
 * Addresses of the same-origin image endpoint, `/portal/_img?url=&w=&q=` (the Next.js
 * image optimizer's interface). The server accepts only these widths and qualities, so
 * the pages and the endpoint share one list and a crawler cannot ask for a new variant
 * per pixel.
 */
import { BASE_PATH } from "./page-route.ts";

export const IMAGE_PATH = `${BASE_PATH}/_img`;

/** Phone, tablet and desktop widths at 1x and 2x, as Next.js picks its device sizes. */
export const IMAGE_WIDTHS = [64, 128, 256, 384, 640, 828, 1080, 1280, 1920] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];
const LARGEST_WIDTH: ImageWidth = 1920;

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

/** True for a source the endpoint reads: a path on this site or an http(s) URL (the endpoint still checks its host). */
export function isImageSource(src: string): boolean {
  return /^(https?:\/\/|\/(?!\/))/i.test(src);
}

/**
 * The widths a box between `min` and `max` CSS pixels wide can use, on screens of 1x
 * to 2x: from the first list width that fills `min` to the first that fills `max` twice.
 */
export function widthsForBox(min: number, max: number): ImageWidth[] {
  const largest = IMAGE_WIDTHS.find((w) => w >= max * 2) ?? LARGEST_WIDTH;
  const smallest = IMAGE_WIDTHS.find((w) => w >= min) ?? largest;
  return IMAGE_WIDTHS.filter((w) => w >= smallest && w <= largest);
}

/** `src` and `srcset` for an image shown in a box `min` to `max` CSS pixels wide; the `src` fills `max` at 1x. */
export function responsiveImage(src: string, min: number, max: number): { src: string; srcSet: string } {
  const widths = widthsForBox(min, max);
  const fallback = widths.find((w) => w >= max) ?? LARGEST_WIDTH;
  return { src: imageUrl(src, fallback), srcSet: imageSrcSet(src, widths) };
}

/** An image across an article: the page's width less its margins on phones, 800 px at most. */
export const DETAIL_IMAGE_SIZES = "(max-width: 848px) calc(100vw - 48px), 800px";
