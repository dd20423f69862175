/**
 * Translations in the embedded content API (docs/behaviour.md#languages), on SQLite and
 * PostgreSQL: `lang=en` answers translated items in English and the rest in Chinese
 * marked `"lang": "zh-CN"`; the demo site has English, Japanese and Arabic for what it
 * promises; export and import (in process and as `npm run content`) carry every
 * language, byte for byte, and refuse one the site cannot store.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type StartedContentApi, startContentApi } from "../../../server/content/api.ts";
import { type ContentDb, openContentDb } from "../../../server/content/db.ts";
import { parseSiteFile, type SiteFile } from "../../../server/content/site-file.ts";
import { exportSite, importSite } from "../../../server/content/site-io.ts";
import { readSiteFile, serialiseSite } from "../../../server/content/site-text.ts";
import type { CompanyIntro, Message, Product, Service } from "../../../shared/entities.ts";
import type { Paged } from "../../../shared/envelope.ts";
import { runContentCli } from "../../support/content-cli.ts";
import { getJson } from "../../support/content-http.ts";
import { describeEachDatabase } from "../../support/databases.ts";

const DEMO_SITE = join(import.meta.dirname, "../../../content/site.json");
/** Han characters: what Chinese text has and English text has not. */
const HAN = /\p{Script=Han}/u;
/** Kana: what Japanese text has and Chinese text has not. */
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const ARABIC = /\p{Script=Arabic}/u;

type Marked<T> = T & { lang?: string };

describeEachDatabase("content in English", (databases) => {
  let content: ContentDb;
  let contentUrl: string;
  let api: StartedContentApi;
  let demo: SiteFile;
  const get = <T>(path: string) => getJson<T>(api.url, `/api/portal${path}`);

  beforeAll(async () => {
    demo = await readSiteFile(DEMO_SITE);
    contentUrl = await databases.create();
    content = await openContentDb(contentUrl);
    await importSite(content, demo);
    api = await startContentApi(content, { host: "127.0.0.1", port: 0 });
  });

  afterAll(async () => {
    await api?.close();
    await content?.close();
    await databases.dispose();
  });

  it("answers a translated item in English, and one without a translation in Chinese marked zh-CN", async () => {
    const product = await get<Marked<Product>>("/product/product/1?lang=en");
    expect(product.body.data.name).toBe("Qinghe Vision V3 All-in-One Visual Inspection System");
    expect(product.body.data.detail).not.toMatch(HAN);
    expect(product.body.data.lang).toBeUndefined();
    // Untranslated fields (the picture, the type) are the item's own.
    expect(product.body.data.propImg).toBe(demo.products[0]?.propImg);

    const notice = demo.notices[0] as Message;
    const answer = await get<Marked<Message>>(`/message/notice/${notice.id}?lang=en`);
    expect(answer.body.data).toEqual({ ...notice, lang: "zh-CN" });
  });

  it("answers in Chinese, unmarked, without lang or with lang=zh-CN, and refuses a language it cannot store", async () => {
    for (const query of ["", "?lang=zh-CN", "?lang="]) {
      const product = await get<Marked<Product>>(`/product/product/1${query}`);
      expect(product.body.data.name, query).toBe(demo.products[0]?.name);
      expect(product.body.data.lang, query).toBeUndefined();
    }
    const bad = await get("/product/product/1?lang=xx");
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe("lang must be zh-CN, zh-TW, en, ja, ko, es, fr, de, ru, ar");
    // A language the content has no rows in is answered in Chinese, marked so.
    const french = await get<Marked<Product>>("/product/product/1?lang=fr");
    expect(french.body.data.name).toBe(demo.products[0]?.name);
    expect(french.body.data.lang).toBe("zh-CN");
    expect((await get("/product/product/1?lang=en&lang=en")).status).toBe(400);
  });

  it("marks each item of a list by itself: translated news in English, the others in Chinese", async () => {
    const news = await get<Paged<Marked<Message>>>("/message/news/list?pageIndex=0&pageMaxCount=100&lang=en");
    const items = news.body.data.pageDataList;
    const translated = items.filter((item) => item.lang === undefined);
    expect(translated.length).toBeGreaterThanOrEqual(5);
    for (const item of translated) expect(`${item.title} ${item.brief}`).not.toMatch(HAN);
    for (const item of items.filter((i) => i.lang !== undefined)) {
      expect(item.lang).toBe("zh-CN");
      expect(item.title).toMatch(HAN);
    }
    expect(news.body.data.totalCount).toBe(demo.news.length);
  });

  it("has English in the demo site for the company introduction, every product and service, and the site's names", async () => {
    const company = await get<Marked<CompanyIntro>>("/plan/company?lang=en");
    expect(company.body.data.lang).toBeUndefined();
    expect(company.body.data.brief).toContain("About Qinghe Intelligence");
    for (const path of ["/product/product/list?lang=en", "/service/service/list?lang=en"]) {
      const list = await get<Marked<Product | Service>[]>(path);
      expect(list.body.data.length).toBeGreaterThan(0);
      for (const item of list.body.data) {
        expect(item.lang, `${path} ${item.id}`).toBeUndefined();
        expect(`${item.name} ${item.detail}`).not.toMatch(HAN);
      }
    }
    const author = await get<{ name: string; fname: string }>("/sys/sysauthor?lang=en");
    expect(author.body.data).toMatchObject({ name: "Qinghe Intelligence", fname: "Hangzhou Qinghe Intelligent Technology Co., Ltd." });
  });

  it("has Japanese and Arabic in the demo site for the company, every product and service, the menus and the names", async () => {
    for (const [lang, script] of [
      ["ja", KANA],
      ["ar", ARABIC],
    ] as const) {
      const company = await get<Marked<CompanyIntro>>(`/plan/company?lang=${lang}`);
      expect(company.body.data.lang, lang).toBeUndefined();
      expect(company.body.data.brief).toMatch(script);
      for (const path of [`/product/product/list?lang=${lang}`, `/service/service/list?lang=${lang}`]) {
        const list = await get<Marked<Product | Service>[]>(path);
        expect(list.body.data.length, path).toBe(8);
        for (const item of list.body.data) {
          expect(item.lang, `${path} ${item.id}`).toBeUndefined();
          expect(`${item.name} ${item.detail}`, `${path} ${item.id}`).toMatch(script);
        }
      }
      // Menus: some Japanese ones are kanji alone (製品), so each differs from its Chinese title instead.
      const menus = await get<Marked<{ id: number; title: string }>[]>(`/sys/menu/list?lang=${lang}`);
      for (const menu of menus.body.data) {
        expect(menu.lang, `${lang} menu ${menu.id}`).toBeUndefined();
        expect(menu.title, `${lang} menu ${menu.id}`).not.toBe(demo.menus.find((m) => m.id === menu.id)?.title);
      }
      expect(menus.body.data.map((m) => m.title).join(" ")).toMatch(script);
      // The news stays in Chinese, marked so: the pages say it rather than pretend.
      const news = await get<Marked<Message>>(`/message/news/${demo.news[0]?.id}?lang=${lang}`);
      expect(news.body.data.lang, lang).toBe("zh-CN");
    }
    const author = await get<{ name: string }>("/sys/sysauthor?lang=ar");
    expect(author.body.data.name).toMatch(ARABIC);
  });

  it("carries Japanese and Arabic through `npm run content -- export` and `import` into a fresh database", async () => {
    const folder = await mkdtemp(join(tmpdir(), "portal-langs-"));
    const fresh = await databases.create();
    try {
      const file = join(folder, "site.json");
      expect((await runContentCli(["export", file], { DATABASE_URL: contentUrl })).code).toBe(0);
      const imported = await runContentCli(["import", file], { DATABASE_URL: fresh });
      expect(imported.code, imported.stderr).toBe(0);
      const other = await openContentDb(fresh);
      try {
        const again = await exportSite(other);
        for (const lang of ["ja", "ar"] as const) {
          expect(again.translations?.[lang], lang).toEqual(demo.translations?.[lang]);
          expect(again.translations?.[lang]?.products, lang).toHaveLength(demo.products.length);
          expect(again.translations?.[lang]?.services, lang).toHaveLength(demo.services.length);
        }
        // A language the site cannot store is refused by name, and the database keeps what it had.
        const hebrew = { ...again, translations: { ...again.translations, he: { menus: [{ id: 1, title: "בית" }] } } };
        await writeFile(file, JSON.stringify(hebrew));
        const refused = await runContentCli(["import", file], { DATABASE_URL: fresh });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toBe(
          'import failed: translations.he: a site cannot store translations into "he": only into zh-TW, en, ja, ko, es, fr, de, ru or ar (zh-CN is the items\' own language)\n',
        );
        expect(serialiseSite(await exportSite(other))).toBe(serialiseSite(again));
      } finally {
        await other.close();
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("exports translations and imports them again, byte for byte", async () => {
    const exported = await exportSite(content);
    expect(Object.keys(exported.translations ?? {})).toEqual(["ar", "en", "ja"]);
    expect(exported.translations?.en?.products).toHaveLength(demo.products.length);
    expect(serialiseSite(exported)).toBe(serialiseSite(demo));

    const other = await openContentDb(await databases.create());
    try {
      await importSite(other, exported);
      expect(serialiseSite(await exportSite(other))).toBe(serialiseSite(exported));
      // A site imported without translations loses the old ones: an import replaces everything.
      const { translations: _, ...withoutTranslations } = exported;
      await importSite(other, withoutTranslations);
      const again = await exportSite(other);
      expect(again.translations).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});

it("refuses a translation of an item the site file does not have, naming it", () => {
  const site = { ...parseSiteFileOrThrow(), translations: { en: { products: [{ id: 999_999, name: "Ghost" }] } } };
  expect(parseSiteFile(site)).toEqual({ ok: false, error: "translations.en.products[0].id: no products item 999999 to translate" });
  const unknownField = { ...parseSiteFileOrThrow(), translations: { en: { products: [{ id: 1, propImg: "/x.svg" }] } } };
  expect(parseSiteFile(unknownField).ok).toBe(false);
});

function parseSiteFileOrThrow(): SiteFile {
  // The smallest valid site: the demo's settings and no items but one product.
  return {
    version: 1,
    syscfg: {
      ico: "",
      metaKeywords: "",
      metaDescription: "",
      baiduVerify: "",
      so360Verify: "",
      tencentVerify: "",
      googleVerify: "",
      themePortal: "1,1",
      copyright: "",
      record: "",
      edi: "",
    },
    sysauthor: { name: "", fname: "", logo: "", phone: "", email: "" },
    indexhtml: { html: "" },
    company: { brief: "" },
    classify: [],
    menus: [],
    slides: [],
    products: [{ id: 1, name: "一", propImg: "", detail: "", type: 1 }],
    services: [],
    news: [],
    notices: [],
    partners: [],
    founders: [],
    milestones: [],
    jobTypes: [],
    jobAddrs: [],
    jobs: [],
    readers: [],
  };
}
