/**
 * The demo site in four languages (PORTAL_LANGS=zh-CN,en,ja,ar), against the built site: each language's pages at
 * /portal/{tag}/, Arabic right to left, `?lang=` as a 301, a switch to every language on every kind of page, hreflang
 * sets and the sitemap's alternates reciprocal in all four (every product and service in all four, the news not in
 * Japanese or Arabic), and caches, purge, feeds, search and the form per language.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_ROUTES, type PageRoute, pageHref } from "../../shared/routes.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { DEMO_CLASSIFY, demoUpstreamRoutes } from "../support/demo-upstream.ts";
import { type Head, headOf, sitemapEntries } from "../support/page-head.ts";
import { newPurgeSecret } from "../support/purge-request.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const ORIGIN = "https://www.example.com";
const LANGS = ["zh-CN", "en", "ja", "ar"] as const;
const PREFIX: Record<(typeof LANGS)[number], string> = { "zh-CN": "", en: "/en", ja: "/ja", ar: "/ar" };

const inLang = (zh: string, lang: (typeof LANGS)[number]) => zh.replace(/^\/portal/, `/portal${PREFIX[lang]}`);

/** The switch's entries: hreflang → href (the current language without a link). */
function switchOf(html: string): Record<string, string | null> {
  const list = /<ul class="lang-menu-list">(.*?)<\/ul>/.exec(html)?.[1] ?? "";
  const entries: Record<string, string | null> = {};
  for (const [, item] of list.matchAll(/<li>(.*?)<\/li>/g)) {
    const link = /href="([^"]+)" hrefLang="([^"]+)"/.exec(item as string);
    if (link) entries[link[2] as string] = link[1] as string;
    else entries[/lang="([^"]+)"/.exec(item as string)?.[1] as string] = null;
  }
  return entries;
}

describe("the demo site in four languages", () => {
  let site: BuiltSite;
  const secret = newPurgeSecret();
  const get = (path: string) => fetch(site.origin + path, { redirect: "manual" });
  const text = async (path: string) => {
    const res = await get(path);
    expect(res.status, path).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    site = await startBuiltSite({
      PORTAL_LANGS: "zh-CN,en,ja,ar",
      PUBLIC_ORIGIN: ORIGIN,
      MISS_RATE_PER_MIN: "0",
      PURGE_SECRET: secret,
      CACHE_TTL_MS: "600000",
    });
  });
  afterAll(() => site?.close());

  it("serves each language at its prefix, with its lang, Arabic right to left", async () => {
    for (const lang of LANGS) {
      const head = headOf(await text(inLang("/portal/index.html", lang)));
      expect(head.htmlLang, lang).toBe(lang);
      expect(head.dir, lang).toBe(lang === "ar" ? "rtl" : undefined);
    }
    // A language the site does not speak is no prefix: a path under it is no page, led home as any other.
    const french = await get("/portal/fr/index.html");
    expect(french.status).toBe(302);
    expect(french.headers.get("location")).toBe("/portal/index.html");
  });

  it("answers ?lang= with a 301 to the page in that language, and ignores a tag the site does not speak", async () => {
    const cases: [string, string][] = [
      ["/portal/index.html?lang=ja", "/portal/ja/index.html"],
      ["/portal/ja/message/news/list.html?page=2&lang=ar", "/portal/ar/message/news/list.html?page=2"],
      ["/portal/ar/product/3?lang=zh-CN", "/portal/product/3"],
      ["/portal/en/about/index.html?lang=ja", "/portal/ja/about/index.html"],
    ];
    for (const [from, to] of cases) {
      const res = await get(from);
      expect(res.status, from).toBe(301);
      expect(res.headers.get("location"), from).toBe(to);
    }
    expect((await get("/portal/index.html?lang=fr")).status).toBe(200);
  });

  it("lists every language in its own name on every kind of page, linking the same page in each", async () => {
    // Home (with the product list), company, product and service, news list and news (translated and not), contact, search.
    const kinds = [
      "/portal/index.html",
      "/portal/about/index.html",
      "/portal/product/3",
      "/portal/product?id=2",
      "/portal/service/3",
      "/portal/message/news/list.html",
      "/portal/message/news/31",
      "/portal/message/news/1",
      "/portal/contact.html",
      "/portal/search.html?q=vision",
    ];
    for (const zh of kinds) {
      for (const lang of LANGS) {
        const html = await text(inLang(zh, lang));
        const entries = switchOf(html);
        expect(Object.keys(entries).sort(), `${lang} ${zh}`).toEqual([...LANGS].sort());
        for (const other of LANGS) expect(entries[other], `${lang} ${zh} → ${other}`).toBe(other === lang ? null : inLang(zh, other));
        expect(html).toContain(">日本語<");
        expect(html).toContain(">العربية<");
      }
    }
  });

  it("links every page's versions reciprocally in all four languages, in the heads and the sitemap, or names none", async () => {
    const sitemap = await text("/sitemap.xml");
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => (m[1] as string).replace(ORIGIN, ""));
    const fixed = (PAGE_ROUTES as readonly PageRoute[]).filter((route) => !route.detail && !route.unlisted).map((route) => pageHref(route));
    const chinese = [...new Set([...fixed, ...locs.filter((loc) => !/^\/portal\/(en|ja|ar)\//.test(loc))])];
    expect(chinese.length).toBeGreaterThan(150);
    const heads = new Map<string, Head>();
    for (const zh of chinese) for (const lang of LANGS) heads.set(ORIGIN + inLang(zh, lang), headOf(await text(inLang(zh, lang))));

    let sets = 0;
    for (const zh of chinese) {
      const zhUrl = ORIGIN + zh;
      for (const lang of LANGS) {
        const url = ORIGIN + inLang(zh, lang);
        const head = heads.get(url) as Head;
        if (Object.keys(head.alternates).length === 0) {
          // Not in this language: the page in the content's own language is canonical, and claims no version here.
          if (lang !== "zh-CN") expect(head.canonical, url).toBe(zhUrl);
          expect(Object.values(heads.get(zhUrl)?.alternates ?? {}), url).not.toContain(url);
          continue;
        }
        sets++;
        expect(head.canonical, url).toBe(url);
        expect(head.alternates[lang], url).toBe(url);
        expect(head.alternates["x-default"], url).toBe(zhUrl);
        // Reciprocal: every page the set names names the same set.
        for (const [hreflang, href] of Object.entries(head.alternates)) {
          if (hreflang === "x-default") continue;
          expect(heads.get(href)?.alternates, `${href} from ${url}`).toEqual(head.alternates);
        }
      }
    }
    // Pages without an item of their own exist in all four; the demo has every product and service in all four,
    // its latest news in English only, and the rest of the news in Chinese only.
    const versions = (url: string) => Object.keys(heads.get(ORIGIN + url)?.alternates ?? {});
    expect(versions("/portal/ja/about/member/index.html")).toEqual([...LANGS, "x-default"]);
    const offerings = chinese.filter((zh) => /^\/portal\/(product|service)\/\d+$/.test(zh));
    expect(offerings).toHaveLength(16);
    for (const zh of offerings)
      for (const lang of LANGS) expect(versions(inLang(zh, lang)), inLang(zh, lang)).toEqual([...LANGS, "x-default"]);
    const news = chinese.filter((zh) => /^\/portal\/message\/news\/\d+$/.test(zh)).map(versions);
    expect(news.filter((langs) => langs.join() === "zh-CN,en,x-default").length).toBeGreaterThanOrEqual(5);
    expect(news.filter((langs) => langs.length === 0).length).toBeGreaterThan(20);
    expect(news.filter((langs) => langs.includes("ja") || langs.includes("ar"))).toEqual([]);
    expect(sets).toBeGreaterThan(100);

    const listed = sitemapEntries(sitemap);
    // The Japanese and Arabic versions of a product are in the sitemap; those of untranslated news are not.
    expect(listed.get(`${ORIGIN}/portal/ar/product/3`)?.ja).toBe(`${ORIGIN}/portal/ja/product/3`);
    expect(listed.has(`${ORIGIN}/portal/ja/message/news/31`)).toBe(false);
    // The sitemap lists a page exactly when its head claims it, with the same alternates.
    for (const [url, head] of heads) {
      const claimed = Object.keys(head.alternates).length > 0 || !/\/portal\/(en|ja|ar)\//.test(url);
      if (!claimed) expect(listed.has(url), url).toBe(false);
      else if (listed.has(url)) expect(listed.get(url), url).toEqual(head.alternates);
    }
  }, 300_000);

  it("has feeds, search and the contact form in each language", async () => {
    for (const lang of LANGS) {
      const feed = await text(inLang("/portal/message/news/rss.xml", lang));
      expect(feed, lang).toContain(`<language>${lang.toLowerCase()}</language>`);
      expect(headOf(await text(inLang("/portal/search.html?q=vision", lang))).htmlLang).toBe(lang);
      expect(headOf(await text(inLang("/portal/contact.html", lang))).htmlLang).toBe(lang);
      const token = await get(`/api/portal/enquiry/token?lang=${lang}`);
      expect(token.status, lang).toBe(200);
    }
    const refused = await get("/api/portal/enquiry/token?lang=fr");
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { msg: string }).msg).toBe("lang must be one of zh-CN, en, ja, ar");
    const api = await get("/api/portal/message/news/31?lang=de");
    expect(api.status).toBe(400);
    expect(((await api.json()) as { msg: string }).msg).toBe("lang must be zh-CN, en, ja or ar");
  });

  it("keeps each language's pages apart in the page cache, and purges every language of an item by its tag", async () => {
    const paths = LANGS.map((lang) => inLang("/portal/message/news/31", lang));
    for (const path of paths) await text(path);
    for (const path of paths) expect((await get(path)).headers.get("x-page-cache"), path).toBe("HIT");
    expect(headOf(await text(paths[2] as string)).htmlLang).toBe("ja");
    const res = await fetch(`${site.origin}/portal/_purge`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ tags: ["news:31"] }),
    });
    expect(res.status).toBe(202);
    // The item's answer in each language and its page in each.
    expect(((await res.json()) as { purged: { tags: Record<string, number> } }).purged.tags["news:31"]).toBe(8);
    for (const path of paths) expect((await get(path)).headers.get("x-page-cache"), path).toBe("STALE");
  });
});

describe("knowing which languages an item exists in, in front of an external upstream", () => {
  let upstream: StandInUpstream;
  let site: BuiltSite;

  beforeAll(async () => {
    upstream = await startStandInUpstream(demoUpstreamRoutes("locale"));
    site = await startBuiltSite({
      API_BASE_URL: upstream.url,
      PORTAL_CLASSIFY: DEMO_CLASSIFY,
      CONTENT_LANG_PARAM: "locale",
      PORTAL_LANGS: "zh-CN,en,ja,ar",
      CACHE_TTL_MS: "600000",
      MISS_RATE_PER_MIN: "0",
    });
  });
  afterAll(async () => {
    await site?.close();
    await upstream?.close();
  });

  it("asks the upstream for an item in its page's language alone, and each language's list once, however many pages are shown", async () => {
    const asked = (path: string) => upstream.requests.map((r) => r.url).filter((url) => url.split("?")[0] === path);
    const item = () => asked("/api/portal/product/product/2");
    const list = () => asked("/api/portal/product/product/list");
    expect((await fetch(`${site.origin}/portal/ja/product/2`)).status).toBe(200);
    // The Japanese page's own item; its versions from the English and Arabic lists, which every product page shares
    // (the Japanese list is its menu's: the same answer).
    const lists = ["ar", "en", "ja"].map((lang) => `/api/portal/product/product/list?locale=${lang}`);
    expect(item()).toEqual(["/api/portal/product/product/2?locale=ja"]);
    expect(list().sort()).toEqual(lists);
    for (const prefix of ["", "/en", "/ar"]) expect((await fetch(`${site.origin}/portal${prefix}/product/2`)).status).toBe(200);
    for (const id of [1, 3]) expect((await fetch(`${site.origin}/portal/ja/product/${id}`)).status).toBe(200);
    // Each page its own item; each language's list once (the Chinese one for the Chinese page's menu), whatever the
    // number of items shown.
    expect(item()).toHaveLength(4);
    expect(list().sort()).toEqual(["/api/portal/product/product/list", ...lists]);
  });
});
