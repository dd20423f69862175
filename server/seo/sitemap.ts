/**
 * /sitemap.xml (sitemaps.org 0.9): every page of the route table (shared/routes.ts)
 * and every detail page the upstream knows, at its canonical URL (`/portal/message/news/{id}`, never `?id=`).
 *
 * Locations are absolute, from PUBLIC_ORIGIN only (never the Host header, which any
 * client can set). Without PUBLIC_ORIGIN the sitemap still answers, with root-relative
 * locations: the protocol wants absolute URLs, but docs/behaviour.md rules out a 404
 * or a redirect, and a relative sitemap is still useful to tools that know the host.
 * The router logs once that PUBLIC_ORIGIN should be set.
 */
import { absoluteUrl } from "../../shared/absolute-url.ts";
import { apiKey } from "../../shared/data-keys.ts";
import type { ItemList, PageDetail, PageItem } from "../../shared/page-route.ts";
import { PAGE_ROUTES, type PageRoute, pageHref } from "../../shared/routes.ts";
import type { ApiReader } from "../portal-api/api-reader.ts";
import { w3cDateOf } from "./message-dates.ts";
import { readAllPages, readPayload } from "./read-upstream.ts";
import { escapeXml, XML_DECLARATION } from "./xml.ts";

export interface SitemapEntry {
  /** Path including the base path, e.g. /portal/message/news/12 */
  path: string;
  lastmod?: string;
}

/** The sitemaps.org limit for one file; beyond it the list is cut (a sitemap index would be the next step). */
export const MAX_SITEMAP_URLS = 50_000;

export function sitemapXml(entries: readonly SitemapEntry[], origin: string | undefined): string {
  const urls = entries.map((entry) => {
    const lastmod = entry.lastmod ? `<lastmod>${escapeXml(entry.lastmod)}</lastmod>` : "";
    return `<url><loc>${escapeXml(absoluteUrl(origin, entry.path))}</loc>${lastmod}</url>`;
  });
  return `${XML_DECLARATION}\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}

export interface CollectedSitemap {
  entries: SitemapEntry[];
  /** Sections whose calls failed; all of them failing means the upstream is down. */
  failed: string[];
  sections: number;
  truncated: boolean;
}

const isId = (id: unknown): id is number => Number.isSafeInteger(id) && (id as number) > 0;

/** The newest valid lastmod of some messages (for their list page). */
function newestOf(dates: (string | undefined)[]): string | undefined {
  // Same-length W3C strings in one time zone sort as text; a bare date sorts before its datetimes.
  return dates.filter((d): d is string => d !== undefined).sort((a, b) => (a < b ? 1 : -1))[0];
}

/** The items of a detail page's list call: every page of a paged call, or its one answer. */
function readItems(reader: ApiReader, list: ItemList): Promise<{ items: PageItem[]; truncated: boolean }> {
  if (list.paged) return readAllPages<PageItem>(reader, list.call, list.query, MAX_SITEMAP_URLS);
  return readPayload<PageItem[]>(reader, apiKey(list.call, { query: list.query }), "list").then((items) => ({ items, truncated: false }));
}

/**
 * The entries of the pages of a table of routes that are not details, in the table's
 * order; a list page is dated by the newest entry of the detail page its route module names.
 */
export function pageEntriesOf(routes: readonly PageRoute[], detailEntries: ReadonlyMap<PageRoute, SitemapEntry[]>): SitemapEntry[] {
  return routes
    .filter((route) => !route.detail && !route.unlisted)
    .map((route) => {
      const dated = route.sitemapLastmodFrom?.();
      const lastmod = dated && newestOf((detailEntries.get(dated) ?? []).map((e) => e.lastmod));
      return lastmod ? { path: pageHref(route), lastmod } : { path: pageHref(route) };
    });
}

/**
 * The sitemap of a table of routes: every page that is not a detail (a list page dated
 * by its newest item, when its route module names that item's detail page), then every
 * item of each detail page's list call, messages dated by their dateTime.
 */
export async function collectSitemap(reader: ApiReader, routes: readonly PageRoute[] = PAGE_ROUTES): Promise<CollectedSitemap> {
  const failed: string[] = [];
  let truncated = false;
  const details = routes.filter((route) => route.detail);
  const detailEntries = await Promise.all(
    details.map(async (route): Promise<SitemapEntry[]> => {
      const detail = route.detail as PageDetail;
      try {
        const read = await readItems(reader, detail.items);
        truncated ||= read.truncated;
        return read.items
          .filter((item) => isId(item?.id))
          .map((item) => ({
            path: pageHref(route, item.id),
            lastmod: detail.kind === "message" ? w3cDateOf(item.dateTime) : undefined,
          }));
      } catch {
        failed.push(route.id);
        return [];
      }
    }),
  );
  const entriesOf = new Map(details.map((route, index) => [route, detailEntries[index] as SitemapEntry[]]));
  const all: SitemapEntry[] = [...pageEntriesOf(routes, entriesOf), ...detailEntries.flat()];
  // An upstream list may repeat an item across pages when content changes while it is read.
  const seen = new Set<string>();
  const entries = all.filter((entry) => !seen.has(entry.path) && seen.add(entry.path));
  if (entries.length > MAX_SITEMAP_URLS) truncated = true;
  return { entries: entries.slice(0, MAX_SITEMAP_URLS), failed, sections: details.length, truncated };
}

/** The calls the sitemap reads: each detail page's list call. */
export function sitemapCalls(routes: readonly PageRoute[] = PAGE_ROUTES): string[] {
  return [...new Set(routes.flatMap((route) => (route.detail ? [route.detail.items.call] : [])))];
}
