/**
 * The frame around the page in Chromium, on the built demo site: home anchors below the fixed
 * header, back-to-top, the footer's accordion and the QR preview.
 */
import { expect, it } from "vitest";
import { describeInBrowser, openWatchedPage } from "../support/browser/chromium.ts";
import { nextFrames } from "../support/browser/frames.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { useHeaderTools } from "../support/browser/shell.ts";
import { useDemoSiteInBrowser } from "../support/browser/site.ts";
import { sourceOf } from "../support/image-markup.ts";

describeInBrowser("the frame around the page in Chromium", () => {
  const env = useDemoSiteInBrowser();

  it("lands a home anchor 75 px below the top, on the home page and from another page", async () => {
    const anchorAt75 = (id: string) =>
      page.waitForFunction((anchor) => {
        const top = document.getElementById(anchor)?.getBoundingClientRect().top ?? Number.NaN;
        return Math.abs(top - 75) <= 2;
      }, id);
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/index.html`);
    await hydrated(page);
    await page.click("#site-menu > li > a.menu-link[href='/portal/index.html#service-list']");
    await anchorAt75("service-list");
    expect(new URL(page.url()).hash).toBe("#service-list");

    await page.goto(`${env.site.origin}/portal/about/index.html`);
    await hydrated(page);
    await page.evaluate(() => {
      (window as unknown as { sameDocument: boolean }).sameDocument = true;
    });
    await page.click("#site-menu > li > a.menu-link[href='/portal/index.html#product-list']");
    await page.waitForURL(/\/portal\/index\.html#product-list$/);
    await anchorAt75("product-list");
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("lands a home anchor 75 px below the top without JavaScript too", async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: false });
    const plain = await context.newPage();
    await plain.goto(`${env.site.origin}/portal/about/index.html`);
    await plain.click("#site-menu > li > a.menu-link[href='/portal/index.html#service-list']");
    await plain.waitForURL(/\/portal\/index\.html#service-list$/);
    await plain.waitForFunction(() => Math.abs((document.getElementById("service-list")?.getBoundingClientRect().top ?? 0) - 75) <= 2);
    await context.close();
  });

  it("shows back-to-top after 200 px of scroll and scrolls back to the top", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/message/news/list.html`);
    await hydrated(page);
    const button = page.locator(".back-to-top");
    expect(await button.isVisible()).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 150));
    await nextFrames(page);
    expect(await button.isVisible()).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 900));
    await button.waitFor({ state: "visible" });
    await button.click();
    await page.waitForFunction(() => window.scrollY === 0);
    await button.waitFor({ state: "hidden" });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("folds the footer groups into an accordion at 375 px and shows them all at 1280 px", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 375);
    await page.goto(`${env.site.origin}/portal/about/index.html`);
    await hydrated(page);
    // The menu's mode tells when the resize below has reached the page's script.
    await useHeaderTools(page);
    const lists = page.locator(".footer-group .footer-list");
    expect(await lists.count()).toBe(5);
    for (const list of await lists.all()) expect(await list.isVisible()).toBe(false);
    const about = page.locator(".footer-group").nth(2);
    await about.locator("summary").click();
    await about.locator(".footer-list").waitFor({ state: "visible" });
    expect(await about.locator("a[href='/portal/about/milepost/index.html']").isVisible()).toBe(true);
    expect(await lists.nth(0).isVisible()).toBe(false);
    await about.locator("summary").click();
    await about.locator(".footer-list").waitFor({ state: "hidden" });

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForSelector("nav.site-nav[data-mode=horizontal]");
    for (const list of await lists.all()) await list.waitFor({ state: "visible" });
    expect(problems).toEqual([]);
    await page.context().close();

    const wide = await openWatchedPage(env.browser, 1280);
    await wide.page.goto(`${env.site.origin}/portal/about/index.html`);
    for (const list of await wide.page.locator(".footer-group .footer-list").all()) await list.waitFor({ state: "visible" });
    await wide.page.context().close();
  });

  it("previews a QR code in a modal dialog that Escape closes", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/about/index.html`);
    await hydrated(page);
    const first = page.locator(".qr-link").first();
    const src = await first.getAttribute("href");
    await first.click();
    const dialog = page.locator("dialog.qr-dialog");
    await dialog.waitFor({ state: "visible" });
    expect(await dialog.evaluate((element) => (element as HTMLDialogElement).open && element.matches(":modal"))).toBe(true);
    // The preview shows the code the link names, through the image endpoint, and it loads.
    const preview = dialog.locator(".qr-preview img");
    expect(sourceOf((await preview.getAttribute("src")) ?? undefined)).toBe(src);
    await page.waitForFunction(() => ((document.querySelector(".qr-preview img") as HTMLImageElement | null)?.naturalWidth ?? 0) > 0);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.classList.contains("qr-link"))).toBe(true);
    expect(page.url()).toBe(`${env.site.origin}/portal/about/index.html`);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
