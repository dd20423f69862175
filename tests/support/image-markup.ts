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

/** The source an endpoint address (as a parsed attribute value) shows, or undefined for any other address. */
export function sourceOf(address: string | undefined): string | undefined {
  if (!address?.startsWith(`${IMAGE_PATH}?`)) return undefined;
  return new URLSearchParams(address.slice(IMAGE_PATH.length + 1)).get("url") ?? undefined;
}
