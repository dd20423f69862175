/**
 * Search in each language as visitors meet it (docs/behaviour.md#search, "Matching"): the built
 * site with PORTAL_LANGS=zh-CN,ja,ko,fr,de,es,ru,ar in front of an upstream that reads the content
 * language (CONTENT_LANG_PARAM), each language's index built from its own news, searched on the
 * API and on the search page the way its readers type.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARK_END, MARK_START } from "../../shared/search.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { DEMO_CLASSIFY, demoUpstreamRoutes } from "../support/demo-upstream.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const LANGS = ["zh-CN", "ja", "ko", "fr", "de", "es", "ru", "ar"] as const;
type SiteLang = (typeof LANGS)[number];

/** One news item in each language, with the letters each language's readers type differently. */
const NEWS: Record<SiteLang, { id: number; title: string; brief: string; detail: string }> = {
  "zh-CN": { id: 101, title: "年度伙伴峰会", brief: "在上海举行", detail: "<p>欢迎参加</p>" },
  ja: { id: 102, title: "東京に新しいコーヒー店", brief: "がっこうの近くです", detail: "<p>ｺｰﾋｰは一杯三百円。</p>" },
  ko: { id: 103, title: "서울 검색엔진 회사 소식", brief: "한국어로 검색합니다", detail: "<p>새 사무실</p>" },
  fr: { id: 104, title: "Le café de la Gare ouvre", brief: "Crème brûlée à volonté", detail: "<p>Bienvenue</p>" },
  de: { id: 105, title: "Neues Büro in der Großen Straße", brief: "Öffnungszeiten", detail: "<p>Willkommen</p>" },
  es: { id: 106, title: "La canción del niño", brief: "Información útil", detail: "<p>Bienvenidos</p>" },
  ru: { id: 107, title: "Компания открывает новый офис", brief: "Ёлка во дворе", detail: "<p>Добро пожаловать</p>" },
  ar: { id: 108, title: "الكِتَابُ الجَدِيدُ لِلشَّرِكَةِ", brief: "مكتبة أحمد في إسطنبول", detail: "<p>مرحبا</p>" },
};

const langOf = (url: URL): SiteLang => (url.searchParams.get("locale") as SiteLang | null) ?? "zh-CN";
const ok = (data: unknown) => ({ body: { code: 0, msg: "ok", data } });

function upstreamRoutes(): Record<string, unknown> {
  const routes: Record<string, unknown> = {
    ...demoUpstreamRoutes("locale"),
    "/api/portal/message/news/list": (url: URL) => {
      const { detail: _, ...listed } = NEWS[langOf(url)];
      return ok({ pageDataList: [{ ...listed, dateTime: "20261101093000" }], totalCount: 1, totalPageCount: 1 });
    },
  };
  for (const lang of LANGS) {
    const item = NEWS[lang];
    routes[`/api/portal/message/news/${item.id}`] = (url: URL) =>
      langOf(url) === lang
        ? ok({ ...item, dateTime: "20261101093000" })
        : { status: 404, body: { code: 404, msg: "not found", data: null } };
  }
  return routes;
}

interface Hit {
  id: number;
  title: string;
  snippet: string;
  url: string;
}

describe("search in eight languages", () => {
  let upstream: StandInUpstream;
  let site: BuiltSite;

  const hits = async (lang: SiteLang, q: string): Promise<Hit[]> => {
    const res = await fetch(`${site.origin}/api/portal/search?q=${encodeURIComponent(q)}&lang=${lang}`);
    expect(res.status, `${lang} ${q}`).toBe(200);
    return ((await res.json()) as { data: { pageDataList: Hit[] } }).data.pageDataList;
  };
  const ids = async (lang: SiteLang, q: string) => (await hits(lang, q)).map((hit) => hit.id);
  const shown = (text: string) => text.replaceAll(MARK_START, "[").replaceAll(MARK_END, "]");

  beforeAll(async () => {
    upstream = await startStandInUpstream(upstreamRoutes());
    site = await startBuiltSite({
      API_BASE_URL: upstream.url,
      PORTAL_CLASSIFY: DEMO_CLASSIFY,
      PORTAL_LANGS: LANGS.join(","),
      CONTENT_LANG_PARAM: "locale",
      SEARCH_REFRESH_MS: "600000",
      MISS_RATE_PER_MIN: "0",
    });
    // Each language's index is built in the background from its own news.
    for (const lang of LANGS) {
      const { id, title } = NEWS[lang];
      for (let i = 0; !(await ids(lang, title.split(" ")[0] as string)).includes(id); i++) {
        if (i > 600) throw new Error(`the ${lang} index is never built`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    await upstream?.close();
  });

  it("finds Japanese by kana and kanji pieces, half-width kana as full-width, and marks them in the text as written", async () => {
    expect(await ids("ja", "コーヒー")).toEqual([102]);
    expect(await ids("ja", "ｺｰﾋｰ")).toEqual([102]);
    expect(await ids("ja", "東京")).toEqual([102]);
    expect(await ids("ja", "がっこう")).toEqual([102]);
    expect(await ids("ja", "京都")).toEqual([]);
    const [hit] = await hits("ja", "コーヒー");
    expect(hit?.url).toBe("/portal/ja/message/news/102");
    expect(shown(hit?.title ?? "")).toBe("東京に新しい[コーヒー]店");
  });

  it("finds Korean by its syllable pairs, inside a word too", async () => {
    expect(await ids("ko", "검색")).toEqual([103]);
    expect(await ids("ko", "엔진 서울")).toEqual([103]);
    expect(await ids("ko", "한국어")).toEqual([103]);
    expect(shown((await hits("ko", "검색"))[0]?.title ?? "")).toBe("서울 [검색]엔진 회사 소식");
  });

  it("finds French, German and Spanish words by their start without their accents, ß as ss", async () => {
    expect(await ids("fr", "cafe")).toEqual([104]);
    expect(await ids("fr", "CAFÉ gare")).toEqual([104]);
    expect(await ids("fr", "creme brulee")).toEqual([104]);
    expect(shown((await hits("fr", "cafe"))[0]?.title ?? "")).toBe("Le [café] de la Gare ouvre");
    expect(await ids("de", "strasse")).toEqual([105]);
    expect(await ids("de", "Straße")).toEqual([105]);
    expect(await ids("de", "buro grossen")).toEqual([105]);
    expect(shown((await hits("de", "strasse"))[0]?.title ?? "")).toBe("Neues Büro in der Großen [Straße]");
    expect(await ids("es", "nino cancion")).toEqual([106]);
    expect(await ids("es", "informacion")).toEqual([106]);
  });

  it("finds Russian by a word's start, in any case, ё as е", async () => {
    expect(await ids("ru", "компан")).toEqual([107]);
    expect(await ids("ru", "КОМПАНИЯ")).toEqual([107]);
    expect(await ids("ru", "елка")).toEqual([107]);
    expect(await ids("ru", "ёлк")).toEqual([107]);
    expect(shown((await hits("ru", "компан"))[0]?.title ?? "")).toBe("[Компания] открывает новый офис");
  });

  it("finds Arabic with or without its vowel marks, whichever alef is written, ة as ه, with or without the article", async () => {
    expect(await ids("ar", "الكتاب")).toEqual([108]);
    expect(await ids("ar", "كتاب")).toEqual([108]);
    expect(await ids("ar", "جديد")).toEqual([108]);
    expect(await ids("ar", "الكِتَابُ")).toEqual([108]);
    expect(await ids("ar", "احمد")).toEqual([108]);
    expect(await ids("ar", "إحمد")).toEqual([108]);
    expect(await ids("ar", "مكتبه اسطنبول")).toEqual([108]);
    expect(await ids("ar", "للشركه")).toEqual([108]);
    expect(shown((await hits("ar", "الكتاب"))[0]?.title ?? "")).toBe("[الكِتَابُ] الجَدِيدُ لِلشَّرِكَةِ");
    // Found without its article, the word is marked as written, article and all.
    expect(shown((await hits("ar", "كتاب"))[0]?.title ?? "")).toBe("[الكِتَابُ] الجَدِيدُ لِلشَّرِكَةِ");
  });

  it("keeps each language to its own index", async () => {
    expect(await ids("ja", "cafe")).toEqual([]);
    expect(await ids("zh-CN", "コーヒー")).toEqual([]);
    expect(await ids("zh-CN", "伙伴峰会")).toEqual([101]);
  });

  it("shows the matches marked on each language's search page", async () => {
    const page = async (lang: SiteLang, q: string) => {
      const res = await fetch(`${site.origin}/portal/${lang}/search.html?q=${encodeURIComponent(q)}`);
      expect(res.status, `${lang} ${q}`).toBe(200);
      const html = await res.text();
      return html.slice(html.indexOf('<main id="main-content"'));
    };
    expect(await page("ja", "ｺｰﾋｰ")).toContain('<a href="/portal/ja/message/news/102">東京に新しい<mark>コーヒー</mark>店</a>');
    expect(await page("fr", "cafe")).toContain("Le <mark>café</mark> de la Gare ouvre");
    expect(await page("ru", "компан")).toContain("<mark>Компания</mark> открывает");
    expect(await page("ar", "الكتاب")).toContain("<mark>الكِتَابُ</mark> الجَدِيدُ");
    expect(await page("ar", "كتاب")).toContain("<mark>الكِتَابُ</mark> الجَدِيدُ");
  });
});
