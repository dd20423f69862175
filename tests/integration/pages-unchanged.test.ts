/**
 * Every kind of page answers byte for byte as recorded from the build before misses were made cheaper (docs/bench.md,
 * "Where a miss goes"): home, lists, details, the company's pages, contact,
 * search, not found, on a site of two languages and on one of four with Arabic, right to left. Each address is
 * asked twice, so an answer made from parts kept since the first is compared too. Alongside
 * two-languages-unchanged.test.ts, which holds every page of the two-language site.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { expectAsRecorded } from "../support/recorded-pages.ts";

const ORIGIN = "https://www.example.com";
const RECORDED = "./pages-unchanged";

const PAGES = [
  "/index.html",
  "/message/news/list.html",
  "/message/news/list.html?page=2&size=5",
  "/message/notice/list.html",
  "/message/news/3",
  "/message/notice/34",
  "/product/2",
  "/service/3",
  "/job/school/index.html",
  "/about/index.html",
  "/about/milepost/index.html",
  "/contact.html",
  "/search.html",
  "/search.html?q=%E5%AD%A6%E5%8F%8B",
  "/search.html?q=vision",
  "/no-such-page.html",
  "/message/news/999999",
];

const inLang = (lang: string, defaultLang: string) => (path: string) =>
  lang === defaultLang ? `/portal${path}` : `/portal/${lang}${path}`;

/**
 * Waits until each language's search index has logged its first build (the log line comes once the build is in
 * place). Before that a search shows what was indexed so far: on a busy machine, the news without the products and
 * services.
 */
async function searchBuilt(site: BuiltSite, langs: string[]): Promise<void> {
  const builds = () =>
    site.logs.filter((line) => line.startsWith("{") && (JSON.parse(line) as { msg?: string }).msg === "search index built").length;
  await vi.waitFor(() => expect(builds()).toBeGreaterThanOrEqual(langs.length), { timeout: 110_000, interval: 100 });
}

describe.each([
  { name: "two languages", langs: ["zh-CN", "en"], env: {} as Record<string, string> },
  { name: "four languages with Arabic", langs: ["zh-CN", "en", "ja", "ar"], env: { PORTAL_LANGS: "zh-CN,en,ja,ar" } },
])("pages on a site of $name, as before", ({ langs, env }) => {
  let site: BuiltSite;

  beforeAll(async () => {
    site = await startBuiltSite({ PUBLIC_ORIGIN: ORIGIN, MISS_RATE_PER_MIN: "0", ...env });
    await searchBuilt(site, langs);
  }, 120_000);
  afterAll(() => site?.close());

  it("answers every kind of page in every language byte for byte as recorded, the first time and again", async () => {
    const paths = langs.flatMap((lang) => PAGES.map(inLang(lang, "zh-CN")));
    for (let round = 0; round < 2; round++) await expectAsRecorded(site.origin, paths, `${RECORDED}/${langs.length}`);
  }, 300_000);
});
