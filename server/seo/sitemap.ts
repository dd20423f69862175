/**
 * /sitemap.xml: every page and every detail the upstream knows, at canonical URLs (docs/behaviour.md#search-engines).
 * Without PUBLIC_ORIGIN (never the Host header) locations are root-relative: still of use, where a 404 would not be.
 */
import { absoluteUrl } from "../../shared/absolute-url.ts";
import { apiKey } from "../../shared/data-keys.ts";
import type { ItemList, PageDetail, PageItem } from "../../shared/page-route.ts";
import { isUntranslated, type Lang } from "../../shared/page-state.ts";
import { PAGE_ROUTES, type PageRoute, pageHref } from "../../shared/routes.ts";
import { baseLang, siteLangs } from "../../shared/site-langs.ts";
import type { ApiReader } from "../api-proxy/api-reader.ts";
import { markOf, readListInLang } from "../langs/list-langs.ts";
import { w3cDateOf } from "./message-dates.ts";
import { readAllPages, readerInLang, readPayload } from "./read-upstream.ts";
import { escapeXml, XML_DECLARATION } from "./xml.ts";

interface SitemapEntry {
  /** Including the base path, e.g. /portal/message/news/12 */
  path: string;
  lastmod?: string;
  /** When the page has a version in each language. */
  alternates?: { hreflang: string; path: string }[];
}

/** The sitemaps.org limit for one file; beyond it the list is cut. */
const MAX_SITEMAP_URLS = 50_000;

export function sitemapXml(entries: readonly SitemapEntry[], origin: string | undefined): string {
  const urls = entries.map((entry) => {
    const lastmod = entry.lastmod ? `<lastmod>${escapeXml(entry.lastmod)}</lastmod>` : "";
    const links = (entry.alternates ?? [])
      .map((a) => `<xhtml:link rel="alternate" hreflang="${escapeXml(a.hreflang)}" href="${escapeXml(absoluteUrl(origin, a.path))}"/>`)
      .join("");
    return `<url><loc>${escapeXml(absoluteUrl(origin, entry.path))}</loc>${lastmod}${links}</url>`;
  });
  return `${XML_DECLARATION}\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
}

interface SitemapLangs {
  /** Content is asked for by language: pages may have English versions. */
  contentLang: boolean;
  defaultLang: Lang;
}

/** A page in every language it exists in (`versions`, in the site's order), each naming all of them; else in the content's own. */
function entriesInLangs(
  href: (lang: Lang) => string,
  lastmod: string | undefined,
  versions: readonly Lang[],
  langs: SitemapLangs,
): SitemapEntry[] {
  const dated = (path: string): SitemapEntry => (lastmod ? { path, lastmod } : { path });
  if (versions.length < 2) return [dated(href(baseLang()))];
  const alternates = [
    ...versions.map((lang) => ({ hreflang: lang, path: href(lang) })),
    { hreflang: "x-default", path: href(versions.includes(langs.defaultLang) ? langs.defaultLang : baseLang()) },
  ];
  return versions.map((lang) => ({ ...dated(href(lang)), alternates }));
}

interface CollectedSitemap {
  entries: SitemapEntry[];
  /** All of them failing means the upstream is down. */
  failed: string[];
  /** Listed in Chinese alone for now. */
  failedLangs: string[];
  sections: number;
  truncated: boolean;
}

const isId = (id: unknown): id is number => Number.isSafeInteger(id) && (id as number) > 0;

function newestOf(dates: (string | undefined)[]): string | undefined {
  // One time zone: they sort as text, a bare date before its datetimes.
  return dates.filter((d): d is string => d !== undefined).sort((a, b) => (a < b ? 1 : -1))[0];
}

function readItems(reader: ApiReader, list: ItemList): Promise<{ items: PageItem[]; truncated: boolean }> {
  if (list.paged) return readAllPages<PageItem>(reader, list.call, list.query, MAX_SITEMAP_URLS);
  return readPayload<PageItem[]>(reader, apiKey(list.call, { query: list.query }), "list").then((items) => ({ items, truncated: false }));
}

/** The pages that are not details; a list page is dated by its newest item. */
export function pageEntriesOf(
  routes: readonly PageRoute[],
  detailEntries: ReadonlyMap<PageRoute, SitemapEntry[]>,
  versions: (route: PageRoute) => readonly Lang[] = () => [],
  langs: SitemapLangs = { contentLang: false, defaultLang: baseLang() },
): SitemapEntry[] {
  return routes
    .filter((route) => !route.detail && !route.unlisted)
    .flatMap((route) => {
      const dated = route.sitemapLastmodFrom?.();
      const lastmod = dated && newestOf((detailEntries.get(dated) ?? []).map((e) => e.lastmod));
      return entriesInLangs((lang) => pageHref(route, undefined, lang), lastmod, versions(route), langs);
    });
}

export async function collectSitemap(
  reader: ApiReader,
  routes: readonly PageRoute[] = PAGE_ROUTES,
  langs: SitemapLangs = { contentLang: false, defaultLang: baseLang() },
): Promise<CollectedSitemap> {
  const failed: string[] = [];
  const failedLangs: string[] = [];
  let truncated = false;
  const others = siteLangs().slice(1);
  const readers = others.map((lang) => readerInLang(reader, lang));
  /** Nothing when content is not asked for by language, or the call failed. */
  const translatedOf = async <T>(section: string, read: () => Promise<T>): Promise<T | undefined> => {
    if (!langs.contentLang) return undefined;
    try {
      return await read();
    } catch {
      failedLangs.push(section);
      return undefined;
    }
  };
  /** Each other language's list, as the detail pages read it for their hreflang sets (server/langs/list-langs.ts). */
  const listsInLangs = (route: PageRoute, list: ItemList) =>
    Promise.all(
      others.map((lang) =>
        translatedOf(route.id, async () => {
          const inLang = await readListInLang(reader.get, list, lang);
          if (!inLang.complete) failedLangs.push(route.id);
          return inLang;
        }),
      ),
    );
  const details = routes.filter((route) => route.detail);
  const detailEntries = await Promise.all(
    details.map(async (route): Promise<SitemapEntry[]> => {
      const detail = route.detail as PageDetail;
      try {
        const [read, inLangs] = await Promise.all([readItems(reader, detail.items), listsInLangs(route, detail.items)]);
        truncated ||= read.truncated;
        /** The languages beside the content's own that list an item as theirs, in the site's order. */
        const versionsOf = (id: number): Lang[] => [baseLang(), ...others.filter((_, i) => inLangs[i] && markOf(inLangs[i], id) === true)];
        return read.items
          .filter((item): item is PageItem & { id: number } => isId(item?.id))
          .flatMap((item) =>
            entriesInLangs(
              (lang) => pageHref(route, item.id, lang),
              detail.kind === "message" ? w3cDateOf(item.dateTime) : undefined,
              versionsOf(item.id),
              langs,
            ),
          );
      } catch {
        failed.push(route.id);
        return [];
      }
    }),
  );
  // A page that is one item (the company introduction) is a translation when its item is.
  const ownItems = routes.filter((route) => !route.detail && route.translatedBy);
  const ownVersions = new Map(
    await Promise.all(
      ownItems.map(async (route) => {
        const items = await Promise.all(
          readers.map((inLang) => translatedOf(route.id, () => readPayload<unknown>(inLang, route.translatedBy?.() as string, "object"))),
        );
        return [route, [baseLang(), ...others.filter((_, i) => items[i] !== undefined && !isUntranslated(items[i]))]] as const;
      }),
    ),
  );
  const versions = (route: PageRoute): readonly Lang[] =>
    langs.contentLang ? (ownVersions.get(route) ?? (route.translatedBy ? [] : siteLangs())) : [];
  const entriesOf = new Map(details.map((route, index) => [route, detailEntries[index] as SitemapEntry[]]));
  const all: SitemapEntry[] = [...pageEntriesOf(routes, entriesOf, versions, langs), ...detailEntries.flat()];
  // An upstream list may repeat an item across pages when content changes while it is read.
  const seen = new Set<string>();
  const entries = all.filter((entry) => !seen.has(entry.path) && seen.add(entry.path));
  if (entries.length > MAX_SITEMAP_URLS) truncated = true;
  return { entries: entries.slice(0, MAX_SITEMAP_URLS), failed, failedLangs, sections: details.length, truncated };
}

export function sitemapCalls(routes: readonly PageRoute[] = PAGE_ROUTES): string[] {
  return [...new Set(routes.flatMap((route) => (route.detail ? [route.detail.items.call] : [])))];
}
