/**
 * What an image of `src` looks like in rendered HTML, now that every image goes through
 * the image endpoint: the start of its `src` (any width), as a RegExp source.
 */
import { IMAGE_PATH } from "../../shared/image-url.ts";

const escapeForRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** RegExp source matching the endpoint address of `src` at some width, as it appears in an HTML attribute. */
export function endpointSrc(src: string): string {
  return `${escapeForRegExp(`${IMAGE_PATH}?url=${encodeURIComponent(src)}&amp;w=`)}\\d+&amp;q=\\d+`;
}
