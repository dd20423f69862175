/**
 * The header never overlaps: in every language of the site, at every width from 320 to 1920 px in
 * steps of 20, no two of its items are drawn over each other, none is cut off or outside the window,
 * and the menu's items that do not fit the row are in "More", each once. With the default two
 * languages, and with six (long Russian and German labels, Arabic right to left); without
 * JavaScript at a sample of widths.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInBrowser, launchChromium, openWatchedPage } from "../support/browser/chromium.ts";
import { nextFrames } from "../support/browser/frames.ts";
import { headerLayout } from "../support/browser/header-layout.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { startDemoSite, type TestSite } from "../support/browser/site.ts";

const WIDTHS = Array.from({ length: (1920 - 320) / 20 + 1 }, (_, step) => 320 + step * 20);
const NO_SCRIPT_WIDTHS = [320, 375, 700, 768, 769, 800, 900, 1024, 1100, 1280, 1440, 1920];
const NARROW_MAX = 768;
const TWO = ["", "/en"];
const SIX = ["", "/en", "/ja", "/ar", "/ru", "/de"];

/**
 * Every width in one language: no problem at any, and, wide, the row and "More" share the items.
 * Returns the search button's margin at the inline end at 380 px.
 */
async function sweep(browser: Browser, origin: string, prefix: string): Promise<number> {
  const { page, problems } = await openWatchedPage(browser, 1280, 720);
  let margin = -1;
  {
    await page.goto(`${origin}/portal${prefix}/about/index.html`);
    await hydrated(page);
    const found: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 720 });
      await nextFrames(page);
      const layout = await headerLayout(page);
      found.push(...layout.problems.map((problem) => `${prefix || "/"} at ${width} px: ${problem}`));
      if (width === 380) margin = layout.searchMargin;
      if (width <= NARROW_MAX) continue;
      // Wide: the row shows the first items, "More" the rest, each item in one of them.
      const count = await page.locator("#site-menu > li").count();
      const all = Array.from({ length: count }, (_, index) => index);
      expect([...layout.inRow, ...layout.inMore], `${prefix} at ${width} px`).toEqual(all);
    }
    expect(found).toEqual([]);
  }
  expect(problems).toEqual([]);
  await page.context().close();
  return margin;
}

/** A sample of widths with no script at all: the CSS alone never lets two items overlap. */
async function sweepWithoutScript(browser: Browser, origin: string, prefixes: readonly string[]): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, javaScriptEnabled: false });
  const page = await context.newPage();
  for (const prefix of prefixes) {
    await page.goto(`${origin}/portal${prefix}/about/index.html`);
    const found: string[] = [];
    for (const width of NO_SCRIPT_WIDTHS) {
      await page.setViewportSize({ width, height: 720 });
      found.push(...(await headerLayout(page)).problems.map((problem) => `${prefix || "/"} at ${width} px: ${problem}`));
    }
    expect(found).toEqual([]);
  }
  await context.close();
}

describeInBrowser("the header at every width in every language, in Chromium", () => {
  let browser: Browser;
  let twoLanguages: TestSite;
  let sixLanguages: TestSite;
  beforeAll(async () => {
    [twoLanguages, sixLanguages, browser] = await Promise.all([
      startDemoSite(),
      startDemoSite({ PORTAL_LANGS: "zh-CN,en,ja,ar,ru,de" }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([twoLanguages?.close(), sixLanguages?.close()]);
  });

  for (const [site, prefixes] of [
    ["two", TWO],
    ["six", SIX],
  ] as const) {
    const margins = new Map<string, number>();
    for (const prefix of prefixes) {
      it(`never overlaps in ${prefix || "/"} of ${site} languages, from 320 to 1920 px`, async () => {
        margins.set(prefix, await sweep(browser, (site === "two" ? twoLanguages : sixLanguages).origin, prefix));
      });
    }
    it(`keeps the narrow header's search button the same distance from the edge in all ${site} languages`, () => {
      expect(margins.size).toBe(prefixes.length);
      expect(new Set(margins.values()).size, JSON.stringify([...margins])).toBe(1);
    });
  }

  it("never overlaps without JavaScript", async () => {
    await sweepWithoutScript(browser, twoLanguages.origin, TWO);
    await sweepWithoutScript(browser, sixLanguages.origin, SIX);
  });
});
