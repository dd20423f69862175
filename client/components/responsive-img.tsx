/**
 * Every content image the pages show: through the same-origin image endpoint, as a
 * `srcset` the browser picks from by `sizes`, in a box of fixed `width` and `height` so
 * nothing moves when it arrives (docs/behaviour.md#images). A source the endpoint cannot
 * read (not a site path nor an http(s) URL) is no image at all; a `data:` URL is shown as it is.
 */
import type { ImgHTMLAttributes } from "react";
import { isImageSource, responsiveImage } from "../../shared/image-url.ts";
import { textOf } from "../data/content-values.ts";

type ImgProps = Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "srcSet" | "sizes" | "width" | "height">;

export interface ResponsiveImgProps extends ImgProps {
  /** The content's image address, whatever its JSON type. */
  src: unknown;
  /** The intrinsic size the box keeps (its aspect ratio before CSS sizes it). */
  width: number;
  height: number;
  /** The CSS widths, in px, the image is shown at: the narrowest and widest layouts. */
  box: readonly [min: number, max: number];
  /** The `sizes` attribute: how wide the image is laid out, per viewport. */
  sizes: string;
}

export function ResponsiveImg({ src, width, height, box, sizes, alt = "", ...rest }: ResponsiveImgProps) {
  const source = textOf(src);
  if (source.startsWith("data:image/")) return <img src={source} alt={alt} width={width} height={height} {...rest} />;
  if (!isImageSource(source)) return null;
  const image = responsiveImage(source, box[0], box[1]);
  return <img src={image.src} srcSet={image.srcSet} sizes={sizes} alt={alt} width={width} height={height} {...rest} />;
}

/** True when `src` is an image `ResponsiveImg` shows. */
export function showsImage(src: unknown): boolean {
  const source = textOf(src);
  return source.startsWith("data:image/") || isImageSource(source);
}
