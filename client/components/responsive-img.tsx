/** Every content image the pages show, through the image endpoint, in a box of fixed size (docs/behaviour.md#images). */
import type { ImgHTMLAttributes } from "react";
import { isImageSource, responsiveImage } from "../../shared/image-url.ts";
import { textOf } from "../data/content-values.ts";

type ImgProps = Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "srcSet" | "sizes" | "width" | "height">;

interface ResponsiveImgProps extends ImgProps {
  src: unknown;
  width: number;
  height: number;
  /** The CSS widths, in px, the image is shown at: the narrowest and widest layouts. */
  box: readonly [min: number, max: number];
  sizes: string;
}

export function ResponsiveImg({ src, width, height, box, sizes, alt = "", ...rest }: ResponsiveImgProps) {
  const source = textOf(src);
  if (source.startsWith("data:image/")) return <img src={source} alt={alt} width={width} height={height} {...rest} />;
  if (!isImageSource(source)) return null;
  const image = responsiveImage(source, box[0], box[1]);
  return <img src={image.src} srcSet={image.srcSet} sizes={sizes} alt={alt} width={width} height={height} {...rest} />;
}

export function showsImage(src: unknown): boolean {
  const source = textOf(src);
  return source.startsWith("data:image/") || isImageSource(source);
}
