/**
 * Content in each language (docs/behaviour.md#languages), against the built site: English
 * pages under /portal/en/, `?lang=` as a 301, hreflang sets that are reciprocal across
 * every page of the demo site and its sitemap, honest marking of what is not translated,
 * and caches that never serve one language's answer for the other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyInLang } from "../../shared/data-keys.ts";
import { PAGE_ROUTES, type PageRoute, pageHref } from "../../shared/routes.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { DEMO_CLASSIFY, demoUpstreamRoutes } from "../support/demo-upstream.ts";
import { newPurgeSecret } from "../support/purge-request.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const ORIGIN = "https://www.example.com";
const HAN = /\p{Script=Han}/u;

const get = (site: BuiltSite, path: string, headers: Record<string, string> = {}) =>
  fetch(site.origin + path, { headers, redirect: "manual" });
const text = async (site: BuiltSite, path: string) => {
  const res = await get(site, path);
  expect(res.status, path).toBe(200);
  return res.text();
};

interface Head {
  canonical: string | undefined;
  /** hreflang → href, in document order. */
  alternates: Record<string, string>;
  htmlLang: string | undefined;
}

function headOf(html: string): Head {
  const head = html.slice(0, html.indexOf("</head>"));
  const alternates: Record<string, string> = {};
  for (const [, lang, href] of head.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g))
    alternates[lang as string] = href as string;
  return {
    canonical: /<link rel="canonical" href="([^"]+)">/.exec(head)?.[1],
    alternates,
    htmlLang: /<html lang="([^"]+)"/.exec(html)?.[1],
  };
}

/** The <main> of a page: what the page shows beside the shell. */
const mainOf = (html: string) => html.slice(html.indexOf("<main"), html.indexOf("</main>"));

/** Every page of a site in Chinese: the pages that are not details, and every detail the sitemap lists. */
async function chinesePagesOf(site: BuiltSite): Promise<string[]> {
  const sitemap = await text(site, "/sitemap.xml");
  const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => (m[1] as string).replace(ORIGIN, ""));
  // Unlisted pages (search) are noindex in both languages, with no canonical or alternates: tests/integration/search.test.ts.
  const fixed = (PAGE_ROUTES as readonly PageRoute[]).filter((route) => !route.detail && !route.unlisted).map((route) => pageHref(route));
  return [...new Set([...fixed, ...locs.filter((loc) => !loc.startsWith("/portal/en/"))])];
}

const english = (chinese: string) => chinese.replace(/^\/portal\//, "/portal/en/");

describe("the demo site in two languages", () => {
  let site: BuiltSite;

  beforeAll(async () => {
    site = await startBuiltSite({ PUBLIC_ORIGIN: ORIGIN, MISS_RATE_PER_MIN: "0" });
  });
  afterAll(() => site?.close());

  it("shows /portal/en/index.html with the English interface and English content, marking what is Chinese only", async () => {
    const html = await text(site, "/portal/en/index.html");
    expect(headOf(html).htmlLang).toBe("en");
    // The interface, the menus and the products come in English.
    expect(html).toContain(">Home<");
    expect(html).toContain("Qinghe Vision V3 All-in-One Visual Inspection System");
    expect(html).toContain("AI on every production line");
    // Notices have no translation: each is shown in Chinese, marked so.
    const notices = [...html.matchAll(/<li lang="zh-CN"><a href="\/portal\/en\/message\/notice\/\d+"[^>]*>([^<]+)</g)];
    expect(notices.length).toBeGreaterThan(0);
    for (const [, title] of notices) expect(title).toMatch(HAN);
    // The links stay in English; the switch leads to the same page in Chinese.
    expect(html).toContain('href="/portal/en/about/index.html"');
    expect(html).toMatch(/<a class="lang-switch" href="\/portal\/index.html" hrefLang="zh-CN">/);
    expect(headOf(html).alternates).toEqual({
      "zh-CN": `${ORIGIN}/portal/index.html`,
      en: `${ORIGIN}/portal/en/index.html`,
      "x-default": `${ORIGIN}/portal/index.html`,
    });
  });

  it("says in English that an untranslated item is in Chinese only, marks it, and names the Chinese page canonical", async () => {
    const html = await text(site, "/portal/en/message/notice/34");
    const head = headOf(html);
    expect(head.canonical).toBe(`${ORIGIN}/portal/message/notice/34`);
    expect(head.alternates).toEqual({});
    expect(mainOf(html)).toContain("This content is available in Chinese only.");
    expect(mainOf(html)).toMatch(/<h1 class="page-title" lang="zh-CN">[^<]*\p{Script=Han}/u);
    expect(html).toContain('"inLanguage":"zh-CN"');
    // Its Chinese page names no English version either.
    expect(headOf(await text(site, "/portal/message/notice/34")).alternates).toEqual({});
  });

  it("answers ?lang= with a 301 to the page's address in that language, its query normalised", async () => {
    const cases: [string, string][] = [
      ["/portal/index.html?lang=en", "/portal/en/index.html"],
      ["/portal/message/news/list.html?page=2&utm_source=x&lang=en", "/portal/en/message/news/list.html?page=2"],
      ["/portal/en/product/3?lang=zh-CN", "/portal/product/3"],
      ["/portal/product?id=3&lang=en", "/portal/en/product?id=3"],
    ];
    for (const [from, to] of cases) {
      const res = await get(site, from);
      expect(res.status, from).toBe(301);
      expect(res.headers.get("location"), from).toBe(to);
    }
  });

  it("varies by coding alone: a language cookie changes nothing a URL shows", async () => {
    const plain = await get(site, "/portal/about/index.html");
    const withCookie = await get(site, "/portal/about/index.html", { cookie: "portal_lang=en" });
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    expect(withCookie.headers.get("etag")).toBe(plain.headers.get("etag"));
    expect(headOf(await withCookie.text()).htmlLang).toBe("zh-CN");
  });

  it("links every page to its other language reciprocally, in the heads and in the sitemap, or names none", async () => {
    const chinese = await chinesePagesOf(site);
    expect(chinese.length).toBeGreaterThan(150);
    const heads = new Map<string, Head>();
    for (const path of chinese.flatMap((zh) => [zh, english(zh)])) heads.set(`${ORIGIN}${path}`, headOf(await text(site, path)));

    let translated = 0;
    for (const zh of chinese) {
      const [zhUrl, enUrl] = [`${ORIGIN}${zh}`, `${ORIGIN}${english(zh)}`];
      const [zhHead, enHead] = [heads.get(zhUrl) as Head, heads.get(enUrl) as Head];
      expect(enHead.htmlLang, enUrl).toBe("en");
      // Canonical: each page its own, or, English without a translation, the Chinese one.
      expect(zhHead.canonical, zhUrl).toBe(zhUrl);
      if (Object.keys(enHead.alternates).length === 0) {
        expect(enHead.canonical, enUrl).toBe(zhHead.canonical);
        expect(zhHead.alternates, zhUrl).toEqual({});
        continue;
      }
      translated++;
      const set = { "zh-CN": zhHead.canonical, en: enHead.canonical, "x-default": zhHead.canonical };
      // Reciprocal: both pages name the same set, which names each of them.
      expect(zhHead.alternates, zhUrl).toEqual(set);
      expect(enHead.alternates, enUrl).toEqual(set);
      expect(enHead.canonical, enUrl).toBe(enUrl);
      for (const href of Object.values(set)) expect(heads.get(href as string)?.alternates, `${href} from ${zhUrl}`).toEqual(set);
    }
    // Both cases are there: the demo translates some items and not others.
    expect(translated).toBeGreaterThan(20);
    expect(translated).toBeLessThan(chinese.length);

    // The sitemap lists a page in English exactly when its heads name an English version, with the same alternates.
    const sitemap = await text(site, "/sitemap.xml");
    const entries = [...sitemap.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>[^<]*<\/lastmod>)?(.*?)<\/url>/g)];
    const listed = new Map(
      entries.map(([, loc, links]) => [
        loc as string,
        Object.fromEntries([...(links as string).matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => [m[1], m[2]])),
      ]),
    );
    for (const zh of chinese) {
      const [zhUrl, enUrl] = [`${ORIGIN}${zh}`, `${ORIGIN}${english(zh)}`];
      const head = heads.get(zhUrl) as Head;
      if (!listed.has(zhUrl)) continue; // a page the sitemap leaves out (none today), checked by the count below
      expect(listed.get(zhUrl), zhUrl).toEqual(head.alternates);
      if (Object.keys(head.alternates).length > 0) expect(listed.get(enUrl), enUrl).toEqual(head.alternates);
      else expect(listed.has(enUrl), enUrl).toBe(false);
    }
    expect(listed.size).toBe(chinese.length + translated);
  }, 120_000);

  it("serves a feed in each language, English items linking to their English pages and the rest to their Chinese ones", async () => {
    const feed = await text(site, "/portal/en/message/news/rss.xml");
    expect(feed).toContain("<language>en</language>");
    expect(feed).toContain(`<atom:link href="${ORIGIN}/portal/en/message/news/rss.xml"`);
    const items = [...feed.matchAll(/<item><title>([^<]*)<\/title><link>([^<]*)<\/link>/g)];
    expect(items.length).toBeGreaterThan(5);
    for (const [, title, link] of items) {
      if (HAN.test(title as string)) expect(link).toMatch(/\/portal\/message\/news\/\d+$/);
      else expect(link).toMatch(/\/portal\/en\/message\/news\/\d+$/);
    }
    expect(await text(site, "/portal/message/news/rss.xml")).toContain("<language>zh-cn</language>");
  });
});

describe("in front of an upstream with no translations (CONTENT_LANG_PARAM unset)", () => {
  let upstream: StandInUpstream;
  let site: BuiltSite;

  beforeAll(async () => {
    upstream = await startStandInUpstream(demoUpstreamRoutes());
    site = await startBuiltSite({ API_BASE_URL: upstream.url, PORTAL_CLASSIFY: DEMO_CLASSIFY, PUBLIC_ORIGIN: ORIGIN });
  });
  afterAll(async () => {
    await site?.close();
    await upstream?.close();
  });

  it("has no English page claim to be a translation: no alternates, the Chinese page canonical, content marked zh-CN", async () => {
    for (const zh of [
      "/portal/index.html",
      "/portal/about/index.html",
      "/portal/message/news/list.html",
      "/portal/message/news/33",
      "/portal/product/1",
    ]) {
      const html = await text(site, english(zh));
      const head = headOf(html);
      expect(head.htmlLang, zh).toBe("en");
      expect(head.alternates, zh).toEqual({});
      expect(head.canonical, zh).toBe(`${ORIGIN}${zh}`);
      expect(html, zh).toContain('"inLanguage":"zh-CN"');
      expect(mainOf(html), zh).toContain('lang="zh-CN"');
      expect(headOf(await text(site, zh)).alternates, zh).toEqual({});
    }
    expect(mainOf(await text(site, "/portal/en/message/news/33"))).toContain("This content is available in Chinese only.");
    // Nothing asked the upstream for a language it does not read.
    expect(upstream.requests.filter((r) => r.url.includes("lang"))).toEqual([]);
  });
});

describe("in front of an upstream that reads the content language (CONTENT_LANG_PARAM=locale)", () => {
  let upstream: StandInUpstream;
  let site: BuiltSite;
  const secret = newPurgeSecret();

  beforeAll(async () => {
    upstream = await startStandInUpstream(demoUpstreamRoutes("locale"));
    site = await startBuiltSite({
      API_BASE_URL: upstream.url,
      PORTAL_CLASSIFY: DEMO_CLASSIFY,
      CONTENT_LANG_PARAM: "locale",
      PURGE_SECRET: secret,
      CACHE_TTL_MS: "600000",
      MISS_RATE_PER_MIN: "0",
    });
  });
  afterAll(async () => {
    await site?.close();
    await upstream?.close();
  });

  const asked = (path: string) => upstream.requests.filter((r) => r.url.split("?")[0] === path).map((r) => r.url);

  it("asks the upstream in English for English pages and API requests, and in Chinese (no parameter) for the rest", async () => {
    await text(site, "/portal/en/product/2");
    await text(site, "/portal/product/2");
    expect(asked("/api/portal/product/product/2").sort()).toEqual([
      "/api/portal/product/product/2",
      "/api/portal/product/product/2?locale=en",
    ]);
    const answer = (await (await get(site, "/api/portal/message/notice/34?lang=en")).json()) as { data: { lang?: string } };
    expect(answer.data.lang).toBe("zh-CN");
    expect(asked("/api/portal/message/notice/34")).toEqual(["/api/portal/message/notice/34?locale=en"]);
    expect((await get(site, "/api/portal/message/notice/34?lang=de")).status).toBe(400);
  });

  it("keeps each language's answers apart in the API cache and the page cache", async () => {
    const zh = await get(site, "/api/portal/service/service/3");
    const en = await get(site, "/api/portal/service/service/3?lang=en");
    expect(zh.headers.get("x-cache")).toBe("MISS");
    expect(en.headers.get("x-cache")).toBe("MISS");
    expect(JSON.stringify(await zh.json())).toMatch(HAN);
    expect(JSON.stringify(await en.json())).not.toMatch(HAN);
    // The page the English answer is already cached for reads it, not the Chinese one; and the other way round.
    const enPage = await text(site, "/portal/en/service/3");
    expect(mainOf(enPage)).toContain("Smart Industrial Park Security");
    expect(mainOf(await text(site, "/portal/service/3"))).toContain("智慧园区安防解决方案");
    const again = await get(site, "/portal/en/service/3");
    expect(again.headers.get("x-page-cache")).toBe("HIT");
    expect(mainOf(await again.text())).toContain("Smart Industrial Park Security");
    expect(asked("/api/portal/service/service/3")).toHaveLength(2);
  });

  it("purges every language of an item by its tag", async () => {
    await text(site, "/portal/en/message/news/31");
    await text(site, "/portal/message/news/31");
    await get(site, "/api/portal/message/news/31?lang=en");
    const res = await fetch(`${site.origin}/portal/_purge`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ tags: ["news:31"] }),
    });
    expect(res.status).toBe(202);
    // Two API answers (one per language) and two pages.
    expect(((await res.json()) as { purged: { tags: Record<string, number> } }).purged.tags["news:31"]).toBe(4);
    // (The API answer first: a stale page's re-render refreshes the data it reads.)
    expect((await get(site, "/api/portal/message/news/31?lang=en")).headers.get("x-cache")).toBe("STALE");
    for (const path of ["/portal/en/message/news/31", "/portal/message/news/31"]) {
      expect((await get(site, path)).headers.get("x-page-cache"), path).toBe("STALE");
    }
  });

  it("keys an English answer apart from the Chinese one, as the page state and the browser ask for it", () => {
    expect(keyInLang("/message/news/list?pageIndex=0&pageMaxCount=20", "en")).toBe(
      "/message/news/list?lang=en&pageIndex=0&pageMaxCount=20",
    );
    expect(keyInLang("/plan/company", "en")).toBe("/plan/company?lang=en");
    expect(keyInLang("/plan/company", "zh-CN")).toBe("/plan/company");
  });
});
