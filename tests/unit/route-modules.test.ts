/**
 * Adding a page is one route module, one line in the route table and its component: a
 * page declared here, in a table that holds it, reaches every place derived from the
 * table without any other change (docs/behaviour.md#adding-a-page).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadMessages } from "../../client/i18n/messages.ts";
import { translatorFor } from "../../client/i18n/use-t.ts";
import { loadPage } from "../../client/pages/registry.ts";
import { documentHead } from "../../client/server-head/document-head.ts";
import { pageModuleFile } from "../../client/server-head/page-module-file.ts";
import { canonicalPath } from "../../client/server-head/seo-urls.ts";
import { readDemoSite, samplePages, siteItems } from "../../harness/page-samples.ts";
import { pageRequestOf } from "../../server/pages/page-cache-key.ts";
import { pageEntriesOf } from "../../server/seo/sitemap.ts";
import { keys, pageKeys } from "../../shared/page-data.ts";
import { type Crumb, definePage } from "../../shared/page-route.ts";
import type { PageState } from "../../shared/page-state.ts";
import { about } from "../../shared/pages/about-pages.ts";
import { matchPage, PAGE_ROUTES, PAGES, type PageRoute, pageHref, parentHref, type RouteMatch } from "../../shared/routes.ts";

/** A page of the company's awards, read by `?year=` (a four-digit year; anything else is all years). */
const awards = definePage({
  id: "awards",
  path: "/about/awards/index.html",
  title: {
    "zh-CN": "荣誉资质",
    "zh-TW": "榮譽資質",
    en: "Awards",
    ja: "受賞歴",
    ko: "수상 내역",
    es: "Premios",
    fr: "Distinctions",
    de: "Auszeichnungen",
    ru: "Награды",
    ar: "الجوائز",
  },
  query: (query) => ({ year: /^(19|20)\d\d$/.test(query.get("year") ?? "") ? Number(query.get("year")) : undefined }),
  dataKeys: () => [keys.company()],
  breadcrumb: (): Crumb[] => [about, awards],
  feeds: ["news"],
});
const routes = [...PAGE_ROUTES, awards];

const state = (fallback: Record<string, unknown>): PageState => ({
  lang: "en",
  translated: true,
  config: { defaultLang: "zh-CN", contentLang: true, classify: [], homeScript: false, publicOrigin: "https://www.example.com" },
  fallback,
  failures: {},
});

function matched(path: string, query: URLSearchParams, table: readonly PageRoute[] = routes): RouteMatch {
  const match = matchPage(path, query, table);
  if (!match) throw new Error(`${path} matched no page`);
  return match;
}

describe("a page added to the route table", () => {
  beforeAll(() => loadMessages("en"));
  const query = new URLSearchParams("year=2024&utm_source=mail");

  it("is matched at its path, and only by a table that holds it", () => {
    expect(matched("/about/awards/index.html", query).route).toBe(awards);
    expect(matchPage("/about/awards/index.html", query)).toBeNull();
  });

  it("is keyed in the page cache by the parameters its module reads, parsed as it parses them", () => {
    const key = (url: string) => pageRequestOf(url, routes)?.key;
    expect(key("/about/awards/index.html?year=2024&utm_source=mail")).toBe("zh-CN /about/awards/index.html?year=2024");
    expect(key("/about/awards/index.html?year=24")).toBe("zh-CN /about/awards/index.html");
    expect(pageRequestOf("/about/awards/index.html?year=2024")).toBeNull();
  });

  it("has the server load the data keys its module names, beside the shell's", () => {
    expect(pageKeys(matched("/about/awards/index.html", query), query)).toEqual([keys.company()]);
  });

  it("has a canonical URL keeping the parameters it reads and nothing else", () => {
    expect(canonicalPath(matched("/about/awards/index.html", query), query, () => undefined)).toBe(
      "/portal/about/awards/index.html?year=2024",
    );
    expect(pageHref(awards)).toBe("/portal/about/awards/index.html");
  });

  it("has a head with its title, canonical URL, the feeds it announces and its breadcrumb", () => {
    const head = documentHead(
      {
        match: matched("/about/awards/index.html", query),
        search: query.toString(),
        state: state({ [keys.sysauthor()]: { name: "Acme" } }),
      },
      translatorFor("en"),
    );
    expect(head).toContain("<title>Acme - Awards</title>");
    // An English page of a site with English content: its own English address, and the English feed.
    expect(head).toContain('<link rel="canonical" href="https://www.example.com/portal/en/about/awards/index.html?year=2024">');
    expect(head).toContain(
      '<link rel="alternate" hreflang="zh-CN" href="https://www.example.com/portal/about/awards/index.html?year=2024">',
    );
    expect(head).toContain('title="Acme - News" href="/portal/en/message/news/rss.xml"');
    const breadcrumb = head.match(
      /<script type="application\/ld\+json">(\{"@context":"https:\/\/schema.org","@type":"BreadcrumbList".*?)<\/script>/,
    );
    const trail = JSON.parse(breadcrumb?.[1] ?? "null") as { itemListElement: { name: string; item: string }[] };
    expect(trail.itemListElement.map((crumb) => [crumb.name, crumb.item])).toEqual([
      ["Home", "https://www.example.com/portal/en/index.html"],
      ["About us", "https://www.example.com/portal/en/about/index.html"],
      ["Awards", "https://www.example.com/portal/en/about/awards/index.html"],
    ]);
  });

  it("is listed in the sitemap after the pages before it in the table", () => {
    const paths = pageEntriesOf(routes, new Map()).map((entry) => entry.path);
    expect(paths.at(-1)).toBe("/portal/about/awards/index.html");
    expect(pageEntriesOf(PAGE_ROUTES, new Map()).map((entry) => entry.path)).not.toContain("/portal/about/awards/index.html");
  });

  it("is visited by the runs that visit every page (SSR, browser, audit, reliability)", () => {
    const samples = samplePages(siteItems(readDemoSite()), routes);
    expect(samples.map((sample) => sample.route)).toEqual(routes);
    expect(samples.at(-1)?.path).toBe("/portal/about/awards/index.html");
  });

  it("links to itself with the query values it reads, in either language", () => {
    expect(awards.href({ year: 2024 })).toBe("/about/awards/index.html?year=2024");
    expect(awards.href({ lang: "en" })).toBe("/en/about/awards/index.html");
  });
});

describe("a detail page that names no data keys", () => {
  const prize = definePage({
    id: "prize",
    path: "/about/prize",
    title: {
      "zh-CN": "奖项",
      "zh-TW": "獎項",
      en: "Prize",
      ja: "賞",
      ko: "상",
      es: "Premio",
      fr: "Prix",
      de: "Preis",
      ru: "Премия",
      ar: "جائزة",
    },
    detail: { key: keys.product, kind: "offering", items: { call: "productList", paged: false } },
  });

  it("has the server load its item, and nothing when the URL names no item", () => {
    const none = new URLSearchParams();
    expect(pageKeys(matched("/about/prize/7", none, [...routes, prize]), none)).toEqual([keys.product(7)]);
    expect(pageKeys(matched("/about/prize", none, [...routes, prize]), none)).toEqual([]);
    expect(pageKeys(matched("/message/news/7", none), none)).toEqual([keys.news(7)]);
  });
});

describe("the pages' links", () => {
  it("write a detail page's item, a list's query and the language", () => {
    expect(PAGES.newsDetail.href({ id: 12 })).toBe("/message/news/12");
    expect(PAGES.newsList.itemPage().href({ id: 12, lang: "en" })).toBe("/en/message/news/12");
    expect(PAGES.jobSchoolList.href({ jobTypeIds: "1,2", jobAddrIds: "", page: 2 })).toBe("/job/school/index.html?jobTypeIds=1,2&page=2");
    expect(pageHref("noticeDetail", 3, "en")).toBe("/portal/en/message/notice/3");
  });

  it("lead a detail page back up its trail", () => {
    expect(parentHref(PAGES.noticeDetail)).toBe("/message/notice/list.html");
    expect(parentHref(PAGES.jobSchoolDetail)).toBe("/job/school/index.html");
    expect(parentHref(PAGES.serviceDetail)).toBe("/index.html#service-list");
  });
});

describe("the pages' components", () => {
  it.each(PAGE_ROUTES.map((route) => [route.id, route] as const))("%s has one, named in its head by its file", async (_id, route) => {
    const module = await loadPage(route);
    expect(typeof module.default).toBe("function");
    expect(await pageModuleFile(module)).toMatch(/^client\/pages\/[a-z-]+\.tsx$/);
  });

  it("are shared by pages alike, and preloaded by the file that holds them", async () => {
    expect(await loadPage(PAGES.newsList)).toBe(await loadPage(PAGES.noticeList));
    expect(await pageModuleFile(await loadPage(PAGES.jobSchoolDetail))).toBe("client/pages/job-detail.tsx");
  });

  it("refuse a page not bound to one, naming it", async () => {
    await expect(loadPage(awards)).rejects.toThrow("page awards has no component in client/pages/registry.ts");
  });
});
