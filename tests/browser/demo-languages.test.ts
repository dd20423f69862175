/**
 * The demo site in four languages (PORTAL_LANGS=zh-CN,en,ja,ar; the embedded content API reads `lang`) in Chromium at
 * 375 px: the Japanese and Arabic pages show the demo's own Japanese and Arabic, Arabic right to left, nothing wider
 * than the window; and the language switch takes a visitor from every kind of page to each of the four languages.
 * Screenshots of the home and a product page go to .tmp/screenshots/ for a person to look at.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInBrowser, launchChromium, openWatchedPage } from "../support/browser/chromium.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { startDemoSite, type TestSite } from "../support/browser/site.ts";
import { PROJECT_DIR } from "../support/server-process.ts";

const SHOTS = path.join(PROJECT_DIR, ".tmp", "screenshots");

/** What each language's pages show of the demo content: the names and headings looked for, and the script of its text. */
const DEMO = {
  ja: {
    dir: "ltr",
    script: /[\p{Script=Hiragana}\p{Script=Katakana}]/u,
    about: "青禾数智について",
    product: "青禾ビジョン V3 外観検査オールインワンシステム",
    service: "スマート工業団地セキュリティ",
  },
  ar: {
    dir: "rtl",
    script: /\p{Script=Arabic}/u,
    about: "نبذة عن تشينغخه",
    product: "نظام الفحص البصري المتكامل تشينغخه فيجن V3",
    service: "الأمن الذكي للمجمعات الصناعية",
  },
} as const;

/** Home (and its product list), company, product, service, news list, news in Chinese only, contact, search. */
const KINDS = [
  "/index.html",
  "/about/index.html",
  "/product/1",
  "/service/3",
  "/message/news/list.html",
  "/message/news/1",
  "/contact.html",
  "/search.html?q=vision",
];
const PREFIX = { "zh-CN": "", en: "/en", ja: "/ja", ar: "/ar" } as const;

describeInBrowser("the demo site in Japanese and Arabic, in Chromium at 375 px", () => {
  let site: TestSite;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    site = await startDemoSite({ PORTAL_LANGS: "zh-CN,en,ja,ar" });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it("shows the demo's Japanese and Arabic at /portal/ja/ and /portal/ar/, Arabic right to left, nothing overflowing", async () => {
    const { page, problems } = await openWatchedPage(browser, 375);
    const visible = (text: string) => page.locator("main").getByText(text, { exact: true }).first().isVisible();
    for (const lang of ["ja", "ar"] as const) {
      const demo = DEMO[lang];
      for (const [rest, heading] of [
        // The home's product list names the products in the page's language.
        ["/", demo.product],
        ["/about/index.html", demo.about],
        ["/product/1", demo.product],
        ["/service/3", demo.service],
        ["/message/news/list.html", undefined],
      ] as const) {
        const url = `/portal/${lang}${rest}`;
        await page.goto(site.origin + url);
        await hydrated(page);
        const shown = await page.evaluate(() => ({
          lang: document.documentElement.lang,
          dir: getComputedStyle(document.documentElement).direction,
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          main: document.querySelector("main")?.textContent ?? "",
        }));
        expect(shown, url).toMatchObject({ lang, dir: demo.dir });
        expect(shown.overflow, url).toBeLessThanOrEqual(0);
        expect(shown.main, url).toMatch(demo.script);
        if (heading) expect(await visible(heading), `${heading} on ${url}`).toBe(true);
        if (rest === "/" || rest === "/product/1")
          await page.screenshot({
            path: path.join(SHOTS, `${lang}-demo${rest === "/" ? "-home" : rest.replace(/\W+/g, "-")}-375.png`),
            fullPage: true,
          });
      }
    }
    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);

  it("takes a visitor from every kind of page to each language by the switch, and back", async () => {
    const { page, problems } = await openWatchedPage(browser, 375);
    // From Arabic round the four and back: each language reached, and left, from each kind of page.
    const round = ["ja", "en", "zh-CN", "ar"] as const;
    for (const rest of KINDS) {
      await page.goto(`${site.origin}/portal/ar${rest}`);
      await hydrated(page);
      for (const lang of round) {
        await page.click(".lang-menu > summary");
        await page.click(`.lang-menu-list a[hreflang="${lang}"]`);
        const url = `${site.origin}/portal${PREFIX[lang]}${rest}`;
        await page.waitForURL(url);
        await page.waitForFunction((l) => document.documentElement.lang === l, lang);
        expect(await page.evaluate(() => getComputedStyle(document.documentElement).direction), url).toBe(lang === "ar" ? "rtl" : "ltr");
        // The choice made, the list no longer covers the page.
        expect(await page.locator(".lang-menu").evaluate((menu) => (menu as HTMLDetailsElement).open), url).toBe(false);
        // The switch names the language now shown as the current one.
        expect(await page.locator('.lang-menu-list [aria-current="true"]').getAttribute("lang"), url).toBe(lang);
      }
    }
    expect(problems).toEqual([]);
    await page.context().close();
  }, 180_000);
});
