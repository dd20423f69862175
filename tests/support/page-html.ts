/** Reading a page's server HTML the way a visitor (or a crawler) would: its title, heading, text and list items. */
import { STATE_ELEMENT_ID } from "../../shared/page-state.ts";

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };
export const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity] as string);
export const titleOf = (html: string) => decode(/<title>(.*?)<\/title>/s.exec(html)?.[1] ?? "");
/** The app's markup only (not the head, not the embedded state). */
export const bodyOf = (html: string) => html.slice(html.indexOf('<div id="root">'), html.indexOf(`<script id="${STATE_ELEMENT_ID}"`));
export const textOf = (html: string) =>
  decode(
    bodyOf(html)
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " "),
  );
export const h1Of = (html: string) => decode((/<h1[^>]*>(.*?)<\/h1>/s.exec(bodyOf(html))?.[1] ?? "").replace(/<[^>]+>/g, ""));
/** The text of every link inside elements of a class, in document order: the items of a list. */
export const linkTextsIn = (html: string, className: string) =>
  [...bodyOf(html).matchAll(new RegExp(`class="${className}"><a[^>]*>(.*?)</a>`, "g"))].map((m) => decode(m[1] ?? ""));
export const hrefsIn = (html: string, className: string) =>
  [...bodyOf(html).matchAll(new RegExp(`class="${className}"><a href="([^"]*)"`, "g"))].map((m) => decode(m[1] ?? ""));
export const currentPageOf = (html: string) => /aria-current="page"[^>]*>(\d+)</.exec(bodyOf(html))?.[1];
