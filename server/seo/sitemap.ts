/**
 * /sitemap.xml (sitemaps.org 0.9): every page of SPEC section 2 and every detail page
 * the upstream knows, at its canonical URL (`/portal/message/news/{id}`, never `?id=`).
 *
 * Locations are absolute, from PUBLIC_ORIGIN only (never the Host header, which any
 * client can set). Without PUBLIC_ORIGIN the sitemap still answers, with root-relative
 * locations: the protocol wants absolute URLs, but CONTRACT section 8 rules out a 404
 * or a redirect, and a relative sitemap is still useful to tools that know the host.
 * The router logs once that PUBLIC_ORIGIN should be set.
 */
import type { Job, Message, Product, Service } from "../../shared/entities.ts";
import { keys } from "../../shared/page-data.ts";
import { type PageId, pageHref } from "../../shared/routes.ts";
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

export const STATIC_PAGES: readonly PageId[] = [
  "home",
  "about",
  "founders",
  "milestones",
  "newsList",
  "noticeList",
  "jobSocietyList",
  "jobSchoolList",
];

export function absoluteUrl(origin: string | undefined, path: string): string {
  return origin ? origin + path : path;
}

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

export async function collectSitemap(reader: ApiReader): Promise<CollectedSitemap> {
  const failed: string[] = [];
  let truncated = false;
  const section = async <T>(name: string, load: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await load();
    } catch {
      failed.push(name);
      return [];
    }
  };
  const paged = <T>(callId: string, query: Record<string, number> = {}) =>
    readAllPages<T>(reader, callId, query, MAX_SITEMAP_URLS).then((r) => {
      truncated ||= r.truncated;
      return r.items;
    });

  const [news, notices, products, services, societyJobs, schoolJobs] = await Promise.all([
    section("news", () => paged<Message>("newsList")),
    section("notices", () => paged<Message>("noticeList")),
    section("products", () => readPayload<Product[]>(reader, keys.products(), "list")),
    section("services", () => readPayload<Service[]>(reader, keys.services(), "list")),
    section("society jobs", () => paged<Job>("jobList", { type: 1 })),
    section("school jobs", () => paged<Job>("jobList", { type: 2 })),
  ]);

  const messages = (page: PageId, list: Message[]) =>
    list.filter((m) => isId(m?.id)).map((m) => ({ path: pageHref(page, m.id), lastmod: w3cDateOf(m.dateTime) }));
  const items = (page: PageId, list: { id: number }[]) =>
    list.filter((item) => isId(item?.id)).map((item) => ({ path: pageHref(page, item.id) }));
  const newsEntries = messages("newsDetail", news);
  const noticeEntries = messages("noticeDetail", notices);
  const lastmodOf: Partial<Record<PageId, string>> = {
    newsList: newestOf(newsEntries.map((e) => e.lastmod)),
    noticeList: newestOf(noticeEntries.map((e) => e.lastmod)),
  };

  const all: SitemapEntry[] = [
    ...STATIC_PAGES.map((page) => ({ path: pageHref(page), lastmod: lastmodOf[page] })),
    ...newsEntries,
    ...noticeEntries,
    ...items("productDetail", products),
    ...items("serviceDetail", services),
    ...items("jobSocietyDetail", societyJobs),
    ...items("jobSchoolDetail", schoolJobs),
  ];
  // An upstream list may repeat an item across pages when content changes while it is read.
  const seen = new Set<string>();
  const entries = all.filter((entry) => !seen.has(entry.path) && seen.add(entry.path));
  if (entries.length > MAX_SITEMAP_URLS) truncated = true;
  return { entries: entries.slice(0, MAX_SITEMAP_URLS), failed, sections: 6, truncated };
}
