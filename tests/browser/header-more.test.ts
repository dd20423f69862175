/**
 * "More" in Chromium: it lists exactly the top menu's items the row has no room for, opens from the
 * keyboard, lets Tab reach them, closes on Escape with the focus back on it, on a press elsewhere and
 * when one of its links is followed, and leaves the row when every item fits. Without JavaScript it
 * lists every item.
 */
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { describeInBrowser, openWatchedPage } from "../support/browser/chromium.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { useDemoSiteInBrowser } from "../support/browser/site.ts";

const FOLDED = ".header-inner[data-fit]:not([data-fit=all])";

/** The row's hidden items and More's listed ones, by their links' addresses. */
const rowAndMore = (page: Page) =>
  page.evaluate(() => {
    const hrefOf = (item: Element) => item.querySelector("a, button, span")?.getAttribute("href") ?? item.textContent?.trim();
    const items = [...document.querySelectorAll("#site-menu > li")];
    return {
      hiddenInRow: items.filter((item) => !item.checkVisibility({ visibilityProperty: true })).map(hrefOf),
      listed: [...document.querySelectorAll(".menu-more-list > li")]
        .filter((item) => getComputedStyle(item).display !== "none")
        .map(hrefOf),
    };
  });

describeInBrowser("the header's More menu in Chromium", () => {
  const env = useDemoSiteInBrowser();

  it("lists the items the row has no room for, opens by keyboard, and Escape or a press elsewhere closes it", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1100);
    await page.goto(`${env.site.origin}/portal/en/about/index.html`);
    await hydrated(page);
    await page.waitForSelector(FOLDED);
    const { hiddenInRow, listed } = await rowAndMore(page);
    expect(hiddenInRow.length).toBeGreaterThan(0);
    expect(listed).toEqual(hiddenInRow);

    const details = page.locator("details.menu-more");
    const more = page.locator("summary.menu-more-toggle");
    await more.focus();
    await page.waitForSelector("nav.site-nav[data-mode]");
    await page.keyboard.press("Enter");
    expect(await details.evaluate((element: HTMLDetailsElement) => element.open)).toBe(true);
    await page.keyboard.press("Tab");
    expect(
      await page.evaluate(() => document.activeElement?.closest(".menu-more-list > li")?.querySelector("a")?.getAttribute("href")),
    ).toBe(listed[0]);
    await page.keyboard.press("Escape");
    expect(await details.evaluate((element: HTMLDetailsElement) => element.open)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.classList.contains("menu-more-toggle"))).toBe(true);

    // A press anywhere else closes it too.
    await more.click();
    expect(await details.evaluate((element: HTMLDetailsElement) => element.open)).toBe(true);
    await page.mouse.click(10, 400);
    expect(await details.evaluate((element: HTMLDetailsElement) => element.open)).toBe(false);

    // Open across a move to the narrow layout and back, it is closed.
    await more.click();
    await page.setViewportSize({ width: 768, height: 800 });
    await page.waitForSelector("nav.site-nav[data-mode=vertical]");
    await page.setViewportSize({ width: 1100, height: 800 });
    await page.waitForSelector("nav.site-nav[data-mode=horizontal]");
    expect(await details.evaluate((element: HTMLDetailsElement) => element.open)).toBe(false);

    // Wide enough for every item (Chinese labels are shorter): no More.
    await page.setViewportSize({ width: 1920, height: 800 });
    await page.goto(`${env.site.origin}/portal/about/index.html`);
    await page.waitForSelector(".header-inner[data-fit=all]");
    expect(await more.isVisible()).toBe(false);
    expect((await rowAndMore(page)).hiddenInRow).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("closes when one of its links is followed", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1100);
    await page.goto(`${env.site.origin}/portal/en/index.html`);
    await hydrated(page);
    await page.waitForSelector(FOLDED);
    await page.click("summary.menu-more-toggle");
    const link = page.locator(".menu-more-list a[href^='/portal/']:visible").last();
    const href = await link.getAttribute("href");
    await link.click();
    await page.waitForURL((url) => url.pathname + url.search + url.hash === href);
    expect(await page.locator("details.menu-more").evaluate((element: HTMLDetailsElement) => element.open)).toBe(false);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("lists every item without JavaScript, and opens", async () => {
    const context = await env.browser.newContext({ viewport: { width: 1100, height: 800 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${env.site.origin}/portal/en/about/index.html`);
    const more = page.locator("summary.menu-more-toggle");
    expect(await more.isVisible()).toBe(true);
    await more.click();
    const count = await page.locator("#site-menu > li").count();
    expect((await rowAndMore(page)).listed).toHaveLength(count);
    await page.locator(".menu-more-list a[href='/portal/en/about/member/index.html']").waitFor({ state: "visible" });
    expect(await page.locator(".menu-more-list a[href='/portal/en/index.html']").isVisible()).toBe(true);
    await context.close();
  });
});
