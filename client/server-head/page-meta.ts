/** Facts about a rendered page its head needs beyond the title (docs/behaviour.md#page-head). */

import { detailKey, keys } from "../../shared/data-keys.ts";
import type { Author, Job, Message, Product, Service, SiteConfig, Slide } from "../../shared/entities.ts";
import { isHome, type RouteMatch } from "../../shared/routes.ts";
import { textOf } from "../data/content-values.ts";
import type { ReadPayload } from "../page-title.ts";
import { imageUrl } from "./seo-urls.ts";

/** The same rule as the page status (docs/behaviour.md#page-status). */
export function isNotFound(match: RouteMatch | null, fallback: Record<string, unknown>): boolean {
  if (!match) return true;
  if (!match.route.detail) return false;
  const key = detailKey(match);
  return key === undefined || (key in fallback && fallback[key] === null);
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

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

/** Cut at a character, not inside a surrogate pair. */
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

export function detailItem(match: RouteMatch | null, read: ReadPayload): Item | undefined {
  const key = match ? detailKey(match) : undefined;
  const item = key ? read<Item>(key) : undefined;
  return item && typeof item === "object" ? item : undefined;
}

export function pageDescription(match: RouteMatch | null, read: ReadPayload): string {
  const site = textOf(read<SiteConfig>(keys.syscfg())?.metaDescription);
  const item = detailItem(match, read);
  if (!item) return site;
  const isMessage = match?.route.detail?.kind === "message";
  const own = isMessage ? textOf(item.brief) : textOfHtml(textOf(item.detail) || textOf(item.description));
  return clip(own.replace(/\s+/g, " ").trim()) || site;
}

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
