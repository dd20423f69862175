/**
 * The top menu in Chromium, on the built demo site: its two layouts (decided by CSS, switched by
 * a resize), the narrow menu's toggle, the tools left as the server sent them until used, and
 * submenus by hover, focus, Escape and touch.
 */
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { describeInBrowser, openWatchedPage } from "../support/browser/chromium.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { useHeaderTools } from "../support/browser/shell.ts";
import { useDemoSiteInBrowser } from "../support/browser/site.ts";

/** How the top menu's shown items are laid out: how many rows and columns they take, and whether the menu and the toggle show. */
function menuLayout(page: Page) {
  return page.evaluate(() => {
    const menu = document.getElementById("site-menu") as HTMLElement;
    const boxes = [...menu.querySelectorAll(":scope > .menu-item")]
      .filter((item) => item.checkVisibility({ visibilityProperty: true }))
      .map((item) => item.getBoundingClientRect());
    return {
      menuShown: menu.checkVisibility(),
      toggleShown: document.querySelector(".nav-toggle")?.checkVisibility() ?? false,
      rows: new Set(boxes.map((box) => Math.round(box.top))).size,
      columns: new Set(boxes.map((box) => Math.round(box.left))).size,
      items: boxes.length,
    };
  });
}

describeInBrowser("the top menu in Chromium", () => {
  const env = useDemoSiteInBrowser();

  it("lays out the menu and the footer by CSS alone, and their toggles work without JavaScript", async () => {
    for (const [width, expected] of [
      [1280, { menuShown: true, toggleShown: false, rows: 1 }],
      [768, { menuShown: false, toggleShown: true }],
    ] as const) {
      const context = await env.browser.newContext({ viewport: { width, height: 800 }, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${env.site.origin}/portal/about/index.html`);
      expect(await menuLayout(page), `${width}`).toMatchObject(expected);
      const lists = await page.locator(".footer-group .footer-list").all();
      expect(lists).toHaveLength(5);
      // The footer is laid out only near the screen (content-visibility): wait for the state, whenever a busy machine gets there.
      for (const list of lists) await list.waitFor({ state: width === 1280 ? "visible" : "hidden" });
      if (width === 768) {
        await page.locator(".footer-group summary").first().click();
        await lists[0]?.waitFor({ state: "visible" });
        await page.click("label.nav-toggle");
        const open = await menuLayout(page);
        expect(open).toMatchObject({ menuShown: true, columns: 1, rows: open.items });
      }
      await context.close();
    }
  });

  it("keeps the narrow header's tools the same distance from the right edge in every language", async () => {
    for (const width of [320, 375, 414]) {
      const { page, problems } = await openWatchedPage(env.browser, width);
      const margins: Record<string, { left: number; right: number }> = {};
      for (const path of ["/portal/index.html", "/portal/en/index.html"]) {
        await page.goto(env.site.origin + path);
        await hydrated(page);
        margins[path] = await page.evaluate(() => {
          const brand = document.querySelector(".brand")?.getBoundingClientRect();
          const last = document.querySelector(".header-search-button")?.getBoundingClientRect();
          return { left: Math.round(brand?.left ?? -1), right: Math.round(window.innerWidth - (last?.right ?? 0)) };
        });
      }
      // As wide as the brand's margin on the left, whatever the language's words for the switch and the menu.
      const left = margins["/portal/index.html"]?.left ?? -1;
      expect(left, `${width}`).toBeGreaterThan(0);
      expect(margins, `${width}`).toEqual({
        "/portal/index.html": { left, right: left },
        "/portal/en/index.html": { left, right: left },
      });
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });

  it("switches between the horizontal and the vertical menu when the window is resized", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/about/index.html`);
    await hydrated(page);
    await useHeaderTools(page);
    await page.waitForSelector("nav.site-nav[data-mode=horizontal]");
    expect(await menuLayout(page)).toMatchObject({ menuShown: true, toggleShown: false, rows: 1 });

    await page.setViewportSize({ width: 768, height: 800 });
    await page.waitForSelector("nav.site-nav[data-mode=vertical]");
    expect(await menuLayout(page)).toMatchObject({ menuShown: false, toggleShown: true });
    await page.click("button.nav-toggle");
    const vertical = await menuLayout(page);
    expect(vertical).toMatchObject({ menuShown: true, columns: 1, rows: vertical.items });

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForSelector("nav.site-nav[data-mode=horizontal]");
    expect(await menuLayout(page)).toMatchObject({ menuShown: true, toggleShown: false, rows: 1 });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("opens and closes the narrow menu with its toggle button, Escape and a followed link", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 375);
    await page.goto(`${env.site.origin}/portal/index.html`);
    await hydrated(page);
    await useHeaderTools(page);
    const toggle = page.locator("button.nav-toggle");
    const menu = page.locator("#site-menu");
    expect(await toggle.getAttribute("aria-controls")).toBe("site-menu");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await menu.isVisible()).toBe(false);

    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    await menu.waitFor({ state: "visible" });
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await menu.waitFor({ state: "hidden" });

    await toggle.click();
    await menu.waitFor({ state: "visible" });
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.classList.contains("nav-toggle"))).toBe(true);

    // A submenu of the panel opens with its own button; following one of its links closes the panel.
    await toggle.click();
    const aboutToggle = page.locator("#site-menu > li:has(> a[href='/portal/about/index.html']) > .submenu-toggle");
    await aboutToggle.click();
    expect(await aboutToggle.getAttribute("aria-expanded")).toBe("true");
    await page.click("#site-menu .submenu-link[href='/portal/about/member/index.html']");
    await page.waitForURL(/\/portal\/about\/member\/index\.html$/);
    await menu.waitFor({ state: "hidden" });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("leaves the menu and the language switch as the server sent them until used, and the first tap or Tab on the toggle counts", async () => {
    const context = await env.browser.newContext({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${env.site.origin}/portal/index.html`);
    await hydrated(page);
    // Hydrated, the page's tools are still the server's: the no-JavaScript toggle, no script behind them.
    expect(await page.locator("label.nav-toggle").count()).toBe(1);
    expect(await page.locator("button.nav-toggle").count()).toBe(0);
    await page.locator("label.nav-toggle").tap();
    const toggle = page.locator("button.nav-toggle[aria-expanded=true]");
    await toggle.waitFor();
    await page.locator("#site-menu").waitFor({ state: "visible" });
    await toggle.tap();
    await page.locator("#site-menu").waitFor({ state: "hidden" });
    expect(await page.getAttribute("button.nav-toggle", "aria-expanded")).toBe("false");

    // From the keyboard: the focus that reached the checkbox is on the button that replaces it.
    await page.goto(`${env.site.origin}/portal/about/index.html`);
    await hydrated(page);
    await page.focus("#site-menu-toggle");
    await page.waitForFunction(() => document.activeElement?.matches("button.nav-toggle"));
    await page.keyboard.press("Enter");
    await page.locator("#site-menu").waitFor({ state: "visible" });
    await context.close();
  });

  it("marks the page moved to in the browser in a menu not used before, and points the language switch at it", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/about/index.html`);
    await hydrated(page);
    await page.evaluate(() => {
      (window as unknown as { sameDocument: boolean }).sameDocument = true;
    });
    expect(await page.getAttribute("#site-menu a[aria-current=page]", "href")).toBe("/portal/about/index.html");
    await page.click(".site-footer a[href='/portal/about/member/index.html']");
    await page.waitForURL(/\/portal\/about\/member\/index\.html$/);
    await page.waitForFunction(
      () => document.querySelector("#site-menu a[aria-current=page]")?.getAttribute("href") === "/portal/about/member/index.html",
    );
    expect(await page.locator("#site-menu [aria-current=page]").count()).toBe(1);
    expect(await page.getAttribute(".lang-switch", "href")).toBe("/portal/en/about/member/index.html");
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("opens wide submenus on hover and on keyboard focus, as a grid past 6 entries, and closes them with Escape", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/about/index.html`);
    await hydrated(page);
    const about = page.locator("#site-menu > li:has(> a[href='/portal/about/index.html'])");
    const aboutSubmenu = about.locator(".submenu");
    expect(await aboutSubmenu.isVisible()).toBe(false);
    await about.hover();
    await aboutSubmenu.waitFor({ state: "visible" });
    await page.mouse.move(640, 600);
    await aboutSubmenu.waitFor({ state: "hidden" });

    const products = page.locator("#site-menu > li:has(> a[href='/portal/index.html#product-list'])");
    await products.locator("> a").focus();
    await products.locator(".submenu").waitFor({ state: "visible" });
    expect(await products.locator(".submenu").evaluate((element) => getComputedStyle(element).display)).toBe("flex");
    expect(await products.locator(".submenu-group").count()).toBeGreaterThan(1);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.classList.contains("submenu-link"))).toBe(true);
    await page.keyboard.press("Escape");
    await products.locator(".submenu").waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("href"))).toBe("/portal/index.html#product-list");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("opens a wide submenu with a first tap on a touch screen and follows the link on the next", async () => {
    const context = await env.browser.newContext({ viewport: { width: 1024, height: 768 }, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${env.site.origin}/portal/index.html`);
    await hydrated(page);
    const about = page.locator("#site-menu > li:has(> a[href='/portal/about/index.html'])");
    await about.locator("> a").tap();
    await about.locator(".submenu").waitFor({ state: "visible" });
    expect(new URL(page.url()).pathname).toBe("/portal/index.html");
    await about.locator(".submenu-link[href='/portal/about/member/index.html']").tap();
    await page.waitForURL(/\/portal\/about\/member\/index\.html$/);
    await about.locator(".submenu").waitFor({ state: "hidden" });
    await context.close();
  });
});
