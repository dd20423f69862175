/**
 * The site in ten languages in Chromium: Arabic right to left and the others left to right at 375, 768 and 1280 px
 * with no horizontal overflow, the layout mirrored (carousel arrows, back-to-top, the job drawer) and the carousel
 * stepping the right way, and the switch's ten languages fitting a phone's header and usable by keyboard.
 * Screenshots of each page and width go to .tmp/screenshots/ for a person to look at.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInBrowser, launchChromium, openWatchedPage } from "../support/browser/chromium.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { startDemoSite, type TestSite } from "../support/browser/site.ts";
import { demo } from "../support/demo-lists.ts";
import { PROJECT_DIR } from "../support/server-process.ts";

const TEN = "zh-CN,zh-TW,en,ja,ko,es,fr,de,ru,ar";
const SHOTS = path.join(PROJECT_DIR, ".tmp", "screenshots");
/**
 * How many lines `text` takes where the footer's records show it, and its direction there: its
 * text's boxes, one per line and per run of one direction, counted by line. The footer is laid out
 * only near the screen (content-visibility), so it is scrolled to and its boxes waited for.
 */
async function footerLinesOf(page: Page, text: string) {
  await page.locator(".footer-records").scrollIntoViewIfNeeded();
  const found = await page.waitForFunction((text) => {
    const walker = document.createTreeWalker(document.querySelector(".footer-records") as Node, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(text) ?? -1;
      if (at === -1) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + text.length);
      const boxes = [...range.getClientRects()].sort((a, b) => a.top - b.top);
      if (boxes.length === 0) return undefined;
      let lines = 0;
      let bottom = Number.NEGATIVE_INFINITY;
      for (const box of boxes) {
        if (box.top >= bottom - 1) lines++;
        bottom = Math.max(bottom, box.bottom);
      }
      return { lines, direction: getComputedStyle(node.parentElement as Element).direction };
    }
    return undefined;
  }, text);
  return found.jsonValue();
}
/** How far the page is wider than the window: 0 when nothing sticks out sideways. */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const box = (page: Page, selector: string) =>
  page.evaluate((s) => {
    const r = document.querySelector(s)?.getBoundingClientRect();
    return r ? { left: r.left, right: r.right, width: r.width } : undefined;
  }, selector);

describeInBrowser("ten languages, right to left included, in Chromium", () => {
  let site: TestSite;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    site = await startDemoSite({ PORTAL_LANGS: TEN });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it("shows each language in its direction at 375, 768 and 1280 px, nothing overflowing sideways", async () => {
    const pages = ["/index.html", "/about/index.html", "/job/society/index.html", "/message/news/list.html", "/product/3"];
    for (const width of [375, 768, 1280]) {
      const { page, problems } = await openWatchedPage(browser, width);
      for (const [prefix, dir] of [
        ["/ar", "rtl"],
        ["/ja", "ltr"],
        ["", "ltr"],
      ] as const) {
        for (const rest of pages) {
          const url = `/portal${prefix}${rest}`;
          await page.goto(site.origin + url);
          await hydrated(page);
          expect(await page.evaluate(() => getComputedStyle(document.documentElement).direction), url).toBe(dir);
          expect(await overflow(page), `${url} at ${width}`).toBe(0);
          if (rest === "/index.html" || rest === "/job/society/index.html")
            await page.screenshot({ path: path.join(SHOTS, `${prefix.slice(1) || "zh"}${rest.replace(/\W+/g, "-")}${width}.png`) });
        }
      }
      expect(problems, `at ${width}`).toEqual([]);
      await page.context().close();
    }
  }, 240_000);

  it("mirrors the layout right to left: carousel arrows, back-to-top, the job drawer, and steps the carousel the right way", async () => {
    const sides = async (prefix: string) => {
      const { page } = await openWatchedPage(browser, 1280);
      await page.goto(`${site.origin}/portal${prefix}/index.html`);
      await hydrated(page);
      await page.waitForSelector(".carousel[data-ready]");
      const prev = await box(page, ".carousel-prev");
      const next = await box(page, ".carousel-next");
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForSelector(".back-to-top", { state: "visible" });
      const top = await box(page, ".back-to-top");
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.click(".carousel-toggle");
      await page.click(".carousel-next");
      await page.waitForFunction(() => document.querySelector(".carousel-dot:nth-child(2)")?.getAttribute("aria-current") === "true");
      await page.click(".carousel-prev");
      await page.waitForFunction(() => document.querySelector(".carousel-dot:nth-child(1)")?.getAttribute("aria-current") === "true");
      await page.context().close();
      return { prev, next, top };
    };
    const ltr = await sides("/en");
    const rtl = await sides("/ar");
    expect((ltr.prev?.left ?? 0) < (ltr.next?.left ?? 0)).toBe(true);
    expect((rtl.prev?.left ?? 0) > (rtl.next?.left ?? 0)).toBe(true);
    expect((ltr.top?.left ?? 0) > 640).toBe(true);
    expect((rtl.top?.right ?? 1280) < 640).toBe(true);

    // The job drawer opens from the inline end: the right edge, or the left of a right-to-left page.
    const drawerOf = async (prefix: string) => {
      const { page } = await openWatchedPage(browser, 1280);
      await page.goto(`${site.origin}/portal${prefix}/job/society/index.html`);
      await hydrated(page);
      await page.click(".job-filter-button");
      await page.waitForSelector(".job-drawer[open]");
      await page.waitForFunction(() => document.getAnimations().length === 0);
      const drawer = await box(page, ".job-drawer");
      await page.screenshot({ path: path.join(SHOTS, `${prefix.slice(1)}-job-drawer-1280.png`) });
      await page.context().close();
      return drawer;
    };
    expect((await drawerOf("/en"))?.right).toBe(1280);
    expect((await drawerOf("/ar"))?.left).toBe(0);
  });

  it("keeps the footer's licence and record numbers on one line each, read left to right, on an Arabic phone", async () => {
    const { page, problems } = await openWatchedPage(browser, 375);
    for (const path of ["/portal/ar/index.html", "/portal/ar/about/index.html"]) {
      await page.goto(site.origin + path);
      await hydrated(page);
      for (const number of [demo.syscfg.edi, demo.syscfg.record])
        expect(await footerLinesOf(page, number), `${number} on ${path}`).toEqual({ lines: 1, direction: "ltr" });
    }
    await page.locator(".footer-bottom").screenshot({ path: path.join(SHOTS, "ar-footer-375.png") });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("fits ten languages' switch in a phone's header, opens it by keyboard and reaches each language", async () => {
    const { page, problems } = await openWatchedPage(browser, 375);
    await page.goto(`${site.origin}/portal/ar/about/index.html`);
    await hydrated(page);
    const summary = page.locator(".lang-menu > summary");
    await summary.focus();
    await page.keyboard.press("Enter");
    const links = page.locator(".lang-menu-list a");
    expect(await links.count()).toBe(9);
    for (const link of await links.all()) {
      const r = await link.boundingBox();
      expect(r && r.x >= 0 && r.x + r.width <= 375, (await link.textContent()) ?? "").toBe(true);
    }
    expect(await overflow(page)).toBe(0);
    await page.screenshot({ path: path.join(SHOTS, "ar-switch-375.png") });
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("hreflang"))).toBe("zh-CN");
    await page.locator('.lang-menu-list a[hreflang="ja"]').click();
    await page.waitForURL(`${site.origin}/portal/ja/about/index.html`);
    await page.waitForFunction(() => document.documentElement.lang === "ja");
    expect(await page.locator(".lang-menu > summary").textContent()).toContain("日本語");
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
