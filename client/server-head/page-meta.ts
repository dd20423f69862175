/**
 * Facts about a rendered page that its head needs beyond the title: whether it is the
 * not-found state, its description, its image, and the item it shows.
 */

import { detailKey, keys } from "../../shared/data-keys.ts";
import type { Author, Job, Message, Product, Service, SiteConfig, Slide } from "../../shared/entities.ts";
import { isHome, type RouteMatch } from "../../shared/routes.ts";
import { textOf } from "../data/content-values.ts";
import type { ReadPayload } from "../page-title.ts";
import { imageUrl } from "./seo-urls.ts";

/**
 * A detail page without a valid id, or whose item the upstream does not have (the server
 * stores null under its key and answers 404): the same rule as the page status.
 */
export function isNotFound(match: RouteMatch | null, fallback: Record<string, unknown>): boolean {
  if (!match) return true;
  if (!match.route.detail) return false;
  const key = detailKey(match);
  return key === undefined || (key in fallback && fallback[key] === null);
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The text of sanitised HTML, on one line. */
export function textOfHtml(html: string | undefined): string {
  if (!html) return "";
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === "#") {
        const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : " ";
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, " ")
    .trim();
}

/** At most `max` characters, cut at a character (not inside a surrogate pair) with an ellipsis. */
export function clip(text: string, max = 160): string {
  const chars = Array.from(text);
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`;
}

type Item = Partial<Message & Product & Service & Job>;

/** The item a detail page shows, when the server has it. */
export function detailItem(match: RouteMatch | null, read: ReadPayload): Item | undefined {
  const key = match ? detailKey(match) : undefined;
  const item = key ? read<Item>(key) : undefined;
  return item && typeof item === "object" ? item : undefined;
}

/**
 * A message's brief; for a product, service or job (which have none) the start of the
 * text of its HTML; else, and whenever that is empty, the site's description.
 */
export function pageDescription(match: RouteMatch | null, read: ReadPayload): string {
  const site = textOf(read<SiteConfig>(keys.syscfg())?.metaDescription);
  const item = detailItem(match, read);
  if (!item) return site;
  const isMessage = match?.route.detail?.kind === "message";
  const own = isMessage ? textOf(item.brief) : textOfHtml(textOf(item.detail) || textOf(item.description));
  return clip(own.replace(/\s+/g, " ").trim()) || site;
}

/** The page's picture: the first slide on home, a product's or message's image, else the company logo. */
export function pageImage(match: RouteMatch | null, read: ReadPayload, origin: string | undefined): string | undefined {
  const logo = imageUrl(origin, read<Author>(keys.sysauthor())?.logo);
  if (!match) return logo;
  if (isHome(match.route)) {
    const slides = read<Slide[]>(keys.slides());
    return (
      (Array.isArray(slides)
        ? slides
            .slice(0, 10)
            .map((s) => imageUrl(origin, s?.img))
            .find(Boolean)
        : undefined) ?? logo
    );
  }
  const item = detailItem(match, read);
  return imageUrl(origin, item?.img) ?? imageUrl(origin, item?.propImg) ?? logo;
}
