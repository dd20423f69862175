/**
 * The URLs a page's head names: its canonical URL, its language alternates and absolute
 * forms of paths and images. Absolute URLs come from PUBLIC_ORIGIN only (never the
 * request's Host); without it they stay root-relative.
 *
 * Canonical: one URL per page. A detail's is `/x/{id}` (its `?id=` form points there; a
 * job's follows the job's own kind); a list's drops the defaults (page 1, size 20) and
 * keeps a later page, another size and the job filters, in the order the site's own
 * links write them. `?lang=` is kept when the URL named it, so each language version is
 * its own canonical URL, as hreflang alternates must be; the URL without it is x-default.
 */

import { detailKey } from "../../shared/data-keys.ts";
import type { Job } from "../../shared/entities.ts";
import { pageQueryOf } from "../../shared/page-address.ts";
import type { Lang } from "../../shared/page-state.ts";
import { pageHref, type RouteMatch } from "../../shared/routes.ts";
import { withQuery } from "../../shared/with-query.ts";
import type { ReadPayload } from "./page-title.ts";

/**
 * The canonical path (with the base path and any query that matters, without `lang`) of
 * a page, or undefined for a detail without a valid id.
 */
export function canonicalPath(match: RouteMatch, query: URLSearchParams, read: ReadPayload): string | undefined {
  const { route } = match;
  if (route.detail) {
    if (match.id === undefined) return undefined;
    if (route.id === "jobSocietyDetail" || route.id === "jobSchoolDetail") {
      const key = detailKey(match);
      const type = key ? read<Job>(key)?.type : undefined;
      const page = type === 1 ? "jobSocietyDetail" : type === 2 ? "jobSchoolDetail" : route.id;
      return pageHref(page, match.id);
    }
    return pageHref(route.id, match.id);
  }
  switch (route.id) {
    case "newsList":
    case "noticeList":
    case "jobSocietyList":
    case "jobSchoolList":
      return withQuery(pageHref(route.id), pageQueryOf(match, query));
    default:
      return pageHref(route.id);
  }
}

/** A path with `?lang=` added (the interface language the server renders it in). */
export function withLang(path: string, lang: Lang | undefined): string {
  if (!lang) return path;
  return `${path}${path.includes("?") ? "&" : "?"}lang=${lang}`;
}

export function absoluteUrl(origin: string | undefined, path: string): string {
  return origin ? origin + path : path;
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
