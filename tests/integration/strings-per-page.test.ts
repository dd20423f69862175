/**
 * A page's browser gets the interface strings of its own language only: the home page's JavaScript is the same
 * files, byte for byte, whether the site speaks two languages or ten, and none of them holds another language's
 * strings (interface strings or page names); a page in Japanese adds the Japanese ones and no others.
 */
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";

const TEN = "zh-CN,zh-TW,en,ja,ko,es,fr,de,ru,ar";
/** A string of each language's module that no other module holds. */
const MARKS: Record<string, string> = {
  "zh-TW": "載入中…",
  en: "Loading…",
  ja: "読み込み中…",
  ko: "불러오는 중…",
  es: "Cargando…",
  fr: "Chargement…",
  de: "Wird geladen …",
  ru: "Загрузка…",
  ar: "جارٍ التحميل…",
};

/** The about page's name in each language, which no other language's module holds either. */
const PAGE_NAMES: Record<string, string> = {
  "zh-TW": "公司簡介",
  ja: "会社概要",
  ko: "회사 소개",
  es: "Quiénes somos",
  fr: "Qui sommes-nous",
  de: "Über uns",
  ru: "О компании",
  ar: "من نحن",
};
const marksOf = (lang: string): string[] => [MARKS[lang], PAGE_NAMES[lang]].filter((mark) => mark !== undefined);

/** Every script a page names (its entry and the modules it preloads), with its text. */
async function scriptsOf(site: BuiltSite, path: string): Promise<Map<string, string>> {
  const html = await (await fetch(site.origin + path)).text();
  const srcs = [...html.matchAll(/<(?:script[^>]+src|link rel="modulepreload"[^>]+href)="([^"]+\.js)"/g)].map((m) => m[1] as string);
  expect(srcs.length, path).toBeGreaterThan(1);
  const out = new Map<string, string>();
  for (const src of srcs) out.set(src, await (await fetch(site.origin + src)).text());
  return out;
}

const gzipSize = (scripts: Map<string, string>) => [...scripts.values()].reduce((sum, text) => sum + gzipSync(text).length, 0);

describe("interface strings per page", () => {
  let two: BuiltSite;
  let ten: BuiltSite;

  beforeAll(async () => {
    [two, ten] = await Promise.all([
      startBuiltSite({ MISS_RATE_PER_MIN: "0" }),
      startBuiltSite({ PORTAL_LANGS: TEN, MISS_RATE_PER_MIN: "0" }),
    ]);
  });
  afterAll(async () => {
    await two?.close();
    await ten?.close();
  });

  it("sends the home page the same JavaScript with ten languages as with two, holding no other language's strings", async () => {
    const withTwo = await scriptsOf(two, "/portal/index.html");
    const withTen = await scriptsOf(ten, "/portal/index.html");
    expect([...withTen.keys()]).toEqual([...withTwo.keys()]);
    expect(gzipSize(withTen)).toBe(gzipSize(withTwo));
    for (const [src, text] of withTen)
      for (const lang of Object.keys(MARKS))
        for (const mark of marksOf(lang)) expect(text.includes(mark), `${lang}'s ${mark} in ${src}`).toBe(false);
  });

  it("adds to a page in Japanese its strings and no other language's", async () => {
    const scripts = [...(await scriptsOf(ten, "/portal/ja/index.html")).values()].join("\n");
    for (const mark of marksOf("ja")) expect(scripts).toContain(mark);
    for (const lang of Object.keys(MARKS))
      if (lang !== "ja") for (const mark of marksOf(lang)) expect(scripts.includes(mark), `${lang}'s ${mark}`).toBe(false);
  });
});
