/** The URLs a page's head names: canonical, language alternates, absolute images (docs/behaviour.md#page-head). */

import { absoluteUrl } from "../../shared/absolute-url.ts";
import { pageQueryOf } from "../../shared/page-address.ts";
import type { PageItem } from "../../shared/page-route.ts";
import type { Lang } from "../../shared/page-state.ts";
import { pageHref, type RouteMatch } from "../../shared/routes.ts";
import { baseLang } from "../../shared/site-langs.ts";
import { withQuery } from "../../shared/with-query.ts";
import type { ReadPayload } from "../page-title.ts";

/** Undefined for a detail without a valid id. */
export function canonicalPath(match: RouteMatch, query: URLSearchParams, read: ReadPayload, lang: Lang = baseLang()): string | undefined {
  const { route, id } = match;
  if (route.detail) {
    if (id === undefined) return undefined;
    const item = read<PageItem>(route.detail.key(id));
    return pageHref(route.detail.canonicalFor?.(item) ?? route, id, lang);
  }
  return route.canonicalWithoutQuery
    ? pageHref(route, undefined, lang)
    : withQuery(pageHref(route, undefined, lang), pageQueryOf(match, query));
}

/** Relative paths and other schemes are not usable: undefined. */
export function imageUrl(origin: string | undefined, src: string | undefined): string | undefined {
  if (typeof src !== "string" || src.trim() === "") return undefined;
  const value = src.trim();
  if (/^https?:\/\/[^\s]+$/i.test(value)) return value;
  if (/^\/\/[^/\s]/.test(value)) return `https:${value}`;
  if (value.startsWith("/") && !/\s/.test(value)) return absoluteUrl(origin, value);
  return undefined;
}
