/**
 * An upstream whose items carry a `lang` that is no language tag (an object, an array, a number, null): such an
 * item is no translation in any language (docs/behaviour.md#which-versions-exist). Its pages claim no other version
 * in their hreflang sets, the sitemap lists none, each language's list marks it as the stand-in, and every page
 * still answers 200. Against the built site in three languages in front of a stand-in upstream on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiReader } from "../../server/api-proxy/api-reader.ts";
import { createApp, type PortalApp } from "../../server/app.ts";
import { markOf, readListInLang } from "../../server/langs/list-langs.ts";
import { isUntranslated } from "../../shared/page-state.ts";
import { newsDetail } from "../../shared/pages/message-pages.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { testConfig } from "../support/config.ts";
import { DEMO_CLASSIFY } from "../support/demo-upstream.ts";
import { ORIGIN, get as pageAnswer, text as pageText } from "../support/language-pages.ts";
import { headOf, mainOf, sitemapEntries } from "../support/page-head.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";
import { NEWS_PATH, translatedNewsRoutes } from "../support/translated-news-upstream.ts";

const LANGS = ["zh-CN", "en", "ja"] as const;
/** News 1 to 4 each say they are in a "language" that is not one, in every language but the default. */
const SHAPES: Record<number, unknown> = { 1: { tag: "en" }, 2: ["en"], 3: 1, 4: null };
const HOSTILE = Object.keys(SHAPES).map(Number);
/** News 5 is translated (no `lang`), news 6 the stand-in (`"lang": "zh-CN"`): what the hostile ones are told from. */
const [TRANSLATED, STAND_IN] = [5, 6];
const COUNT = 6;

type Route = (url: URL) => { status?: number; body: { data: Record<string, unknown> } };

/** The news upstream, its items 1 to 4 in each other language given the hostile `lang` of SHAPES. */
function hostileLangRoutes(): Record<string, unknown> {
  const routes = translatedNewsRoutes("locale", COUNT, (id) => (id === STAND_IN ? [] : ["en", "ja"]));
  const withShape = (item: Record<string, unknown>, url: URL) =>
    url.searchParams.has("locale") && HOSTILE.includes(item.id as number) ? { ...item, lang: SHAPES[item.id as number] } : item;
  const list = routes[`${NEWS_PATH}/list`] as Route;
  routes[`${NEWS_PATH}/list`] = (url: URL) => {
    const answer = list(url);
    const data = answer.body.data as { pageDataList: Record<string, unknown>[] };
    return { ...answer, body: { ...answer.body, data: { ...data, pageDataList: data.pageDataList.map((item) => withShape(item, url)) } } };
  };
  for (const id of HOSTILE) {
    const detail = routes[`${NEWS_PATH}/${id}`] as Route;
    routes[`${NEWS_PATH}/${id}`] = (url: URL) => {
      const answer = detail(url);
      return { ...answer, body: { ...answer.body, data: withShape(answer.body.data, url) } };
    };
  }
  return routes;
}

const inLang = (zh: string, lang: (typeof LANGS)[number]) => (lang === "zh-CN" ? zh : zh.replace(/^\/portal\//, `/portal/${lang}/`));
const newsPage = (id: number) => `/portal/message/news/${id}`;

it("takes no item whose lang is not a language tag for a translation", () => {
  for (const lang of Object.values(SHAPES)) expect(isUntranslated({ id: 1, lang }), JSON.stringify(lang)).toBe(true);
  expect(isUntranslated({ id: 1, lang: "zh-CN" })).toBe(true);
  expect(isUntranslated({ id: 1 })).toBe(false);
  expect(isUntranslated({ id: 1, lang: undefined })).toBe(false);
});

describe("each language's list of an upstream naming items' languages wrongly", () => {
  let upstream: StandInUpstream;
  let app: PortalApp;
  let read: ReturnType<typeof createApiReader>["get"];

  beforeAll(async () => {
    upstream = await startStandInUpstream(hostileLangRoutes());
    const config = testConfig({ PORTAL_LANGS: LANGS.join(","), CONTENT_LANG_PARAM: "locale" });
    app = createApp(config, { upstreamUrl: upstream.url });
    read = createApiReader(app.portal.cache, app.portal.upstream, config.cache, [], "locale").get;
  });
  afterAll(async () => {
    await app?.portal.close();
    await upstream?.close();
  });

  it("marks those items as the stand-in in the content's own language, in every language", async () => {
    for (const lang of ["en", "ja"] as const) {
      const list = await readListInLang(read, newsDetail.detail.items, lang);
      expect(list.complete, lang).toBe(true);
      expect(
        [...HOSTILE, TRANSLATED, STAND_IN].map((id) => markOf(list, id)),
        lang,
      ).toEqual([false, false, false, false, true, false]);
    }
  });
});

describe("the built site in front of an upstream naming items' languages wrongly", () => {
  let upstream: StandInUpstream;
  let site: BuiltSite;
  const text = (path: string) => pageText(site, path);
  const get = (path: string) => pageAnswer(site, path);

  beforeAll(async () => {
    upstream = await startStandInUpstream(hostileLangRoutes());
    site = await startBuiltSite({
      API_BASE_URL: upstream.url,
      PORTAL_CLASSIFY: DEMO_CLASSIFY,
      PORTAL_LANGS: LANGS.join(","),
      CONTENT_LANG_PARAM: "locale",
      PUBLIC_ORIGIN: ORIGIN,
      MISS_RATE_PER_MIN: "0",
    });
  });
  afterAll(async () => {
    await site?.close();
    await upstream?.close();
  });

  it("claims no other version of such an item in any language's hreflang set, marking its content as Chinese", async () => {
    for (const id of HOSTILE) {
      for (const lang of LANGS) {
        const path = inLang(newsPage(id), lang);
        const html = await text(path);
        const head = headOf(html);
        expect(head.alternates, path).toEqual({});
        expect(head.canonical, path).toBe(ORIGIN + newsPage(id));
        if (lang !== "zh-CN") expect(mainOf(html), path).toMatch(/<h1 class="page-title" lang="zh-CN">/);
      }
    }
    // Told apart from a translated item, which names all three.
    const translated = headOf(await text(inLang(newsPage(TRANSLATED), "ja"))).alternates;
    expect(Object.keys(translated).sort()).toEqual([...LANGS, "x-default"].sort());
  });

  it("lists no other version of such an item in the sitemap, and shows the lists with it marked", async () => {
    const entries = sitemapEntries(await text("/sitemap.xml"));
    for (const id of HOSTILE) {
      expect(entries.get(ORIGIN + newsPage(id)), String(id)).toEqual({});
      for (const lang of ["en", "ja"] as const) expect(entries.has(ORIGIN + inLang(newsPage(id), lang)), `${lang} ${id}`).toBe(false);
    }
    expect(Object.keys(entries.get(ORIGIN + newsPage(TRANSLATED)) ?? {}).sort()).toEqual([...LANGS, "x-default"].sort());
    for (const lang of ["en", "ja"] as const) {
      const list = mainOf(await text(inLang("/portal/message/news/list.html", lang)));
      // Four hostile items and the stand-in, each marked as in Chinese.
      expect(list.match(/class="untranslated-mark"/g), lang).toHaveLength(HOSTILE.length + 1);
    }
    for (const id of HOSTILE) expect((await get(`/api/portal/message/news/${id}?lang=en`)).status).toBe(200);
  });
});
