/**
 * The URLs a page's head names: its canonical URL, its language alternates and absolute
 * forms of paths and images. Absolute URLs come from PUBLIC_ORIGIN only (never the
 * request's Host); without it they stay root-relative.
 *
 * Canonical: one URL per page. A detail's is `/x/{id}` (its `?id=` form points there;
 * its route module may name another page for the item, as a job's own kind does); any
 * other page's keeps the query its route module reads, written as its address writes
 * it (defaults dropped, in the order the site's own links write them), unless the
 * module leaves the query out of its canonical URL. Each language version is its own
 * canonical URL (its address in that language), as hreflang alternates must be; a page
 * whose content is not in its language names the Chinese one (docs/behaviour.md#languages).
 */

import { absoluteUrl } from "../../shared/absolute-url.ts";
import { pageQueryOf } from "../../shared/page-address.ts";
import type { PageItem } from "../../shared/page-route.ts";
import type { Lang } from "../../shared/page-state.ts";
import { pageHref, type RouteMatch } from "../../shared/routes.ts";
import { withQuery } from "../../shared/with-query.ts";
import type { ReadPayload } from "../page-title.ts";

/**
 * The canonical path (with the base path and any query that matters) of a page in a
 * language, or undefined for a detail without a valid id.
 */
export function canonicalPath(match: RouteMatch, query: URLSearchParams, read: ReadPayload, lang: Lang = "zh-CN"): string | undefined {
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

/**
 * An image of the data as a URL for other sites (Open Graph, JSON-LD): absolute ones as
 * they are, root-relative ones made absolute when the origin is known; anything else
 * (a relative path, another scheme) is not usable and gives undefined.
 */
export function imageUrl(origin: string | undefined, src: string | undefined): string | undefined {
  if (typeof src !== "string" || src.trim() === "") return undefined;
  const value = src.trim();
  if (/^https?:\/\/[^\s]+$/i.test(value)) return value;
  if (/^\/\/[^/\s]/.test(value)) return `https:${value}`;
  if (value.startsWith("/") && !/\s/.test(value)) return absoluteUrl(origin, value);
  return undefined;
}
