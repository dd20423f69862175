/**
 * The site shell in Chromium, on the built demo site: hydration without warnings, the
 * menu's two layouts (decided by CSS, switched by a resize), the narrow menu's toggle,
 * submenus, home anchors below the fixed header, back-to-top, the footer accordion,
 * the QR preview, the language switch, the title and the loading bar on client navigation.
 */
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { describeInBrowser, failRequests, followWithDataHeld, holdRequests, openWatchedPage } from "../support/browser/chromium.ts";
import { useDemoSiteInBrowser } from "../support/browser/site.ts";
import { sourceOf } from "../support/image-markup.ts";

/** The notice list, and its data, held to keep the loading bar showing during a client navigation. */
const NOTICE_LIST = "/portal/message/notice/list.html";
const NOTICE_LIST_DATA = "**/api/portal/message/notice/list**";
const hydrated = (page: Page) => page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
/** The visitor points at the language switch: the header's tools (menu and switch), left as the server sent them until used, take over. */
async function useHeaderTools(page: Page): Promise<void> {
  await page.hover(".lang-switch");
  await page.waitForSelector("nav.site-nav[data-mode]");
}
const nextFrames = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** How the top menu's items are laid out: how many rows and columns they take, and whether the menu and the toggle show. */
function menuLayout(page: Page) {
  return page.evaluate(() => {
    const menu = document.getElementById("site-menu") as HTMLElement;
    const boxes = [...menu.querySelectorAll(":scope > .menu-item")].map((item) => item.getBoundingClientRect());
    return {
      menuShown: menu.checkVisibility(),
      toggleShown: document.querySelector(".nav-toggle")?.checkVisibility() ?? false,
      rows: new Set(boxes.map((box) => Math.round(box.top))).size,
      columns: new Set(boxes.map((box) => Math.round(box.left))).size,
      items: boxes.length,
    };
  });
}

describeInBrowser("the site shell in Chromium", () => {
  const env = useDemoSiteInBrowser();

  it("hydrates several pages at both widths without console errors or hydration warnings", async () => {
    const paths = [
      "/portal/index.html",
      "/portal/about/index.html",
      "/portal/message/news/list.html",
      "/portal/message/notice/1",
      "/portal/product/1",
      "/portal/job/society/index.html",
      "/portal/en/about/index.html",
      "/portal/en/message/notice/1",
    ];
    for (const width of [1280, 375]) {
      const { page, problems } = await openWatchedPage(env.browser, width);
      for (const path of paths) {
        await page.goto(env.site.origin + path);
        await hydrated(page);
        expect(problems, `${path} at ${width}`).toEqual([]);
      }
      await page.context().close();
    }
  });

  it("starts hydrating only once the stylesheet has arrived, so the page is never laid out unstyled", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 375);
    const release = await holdRequests(page, "**/portal/assets/*.css");
    // Every other request of the page (its scripts and their chunks) is left to finish.
    let inFlight = 0;
    page.on("request", (request) => {
      if (!request.url().endsWith(".css")) inFlight += 1;
    });
    const finished = (request: { url(): string }) => {
      if (!request.url().endsWith(".css")) inFlight -= 1;
    };
    page.on("requestfinished", finished);
    page.on("requestfailed", finished);
    const hydrationStarted = () =>
      page.evaluate(() => Object.keys(document.getElementById("root") ?? {}).some((key) => key.startsWith("__reactContainer")));

    await page.goto(`${env.site.origin}/portal/job/society/index.html`, { waitUntil: "commit" });
    await page.waitForFunction(() => document.readyState !== "loading");
    await expect.poll(() => inFlight).toBe(0);
    // A few turns of the page's task queue: an entry that did not wait would have called hydrateRoot by now.
    for (let turn = 0; turn < 5; turn++) await page.evaluate(() => new Promise((resolve) => setTimeout(resolve)));
    expect(await hydrationStarted()).toBe(false);

    release();
    await hydrated(page);
    expect(await hydrationStarted()).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("hydrates all the same when the stylesheet fails, before the entry looks for it or after", async () => {
    for (const late of [false, true]) {
      const { page, problems } = await openWatchedPage(env.browser, 375);
      const fail = await holdRequests(page, "**/portal/assets/*.css", { status: 404, body: "" });
      if (!late) fail();
      await page.goto(`${env.site.origin}/portal/job/society/index.html`, { waitUntil: "commit" });
      if (late) {
        await page.waitForFunction(() => document.readyState !== "loading");
        fail();
      }
      await hydrated(page);
      await page.locator("button.job-filter-button").click();
      await page.locator("dialog.job-drawer").waitFor({ state: "visible" });
      expect(
        problems.filter((problem) => !problem.includes("404")),
        late ? "failing late" : "failing at once",
      ).toEqual([]);
      await page.context().close();
    }
  });

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

    // Without JavaScript the plain link lands at the same place.
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

  it("switches to the same page in English by client navigation, with its English content, and back", async () => {
    const { page, problems, apiRequests } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/product/2`);
    await hydrated(page);
    expect(await page.textContent("main h1")).toBe("青禾边缘计算网关 EG-500");
    await page.evaluate(() => {
      (window as unknown as { sameDocument: boolean }).sameDocument = true;
    });

    await page.click(".lang-switch");
    await page.waitForURL(`${env.site.origin}/portal/en/product/2`);
    await page.waitForFunction(() => document.documentElement.lang === "en");
    // Interface and content arrive together: the heading is English as soon as the address is.
    expect(await page.textContent("main h1")).toBe("Qinghe EG-500 Edge Computing Gateway");
    expect(await page.textContent(".skip-link")).toBe("Skip to main content");
    expect(await page.locator("main").textContent()).not.toContain("32 TOPS 的 AI 算力");
    expect(await page.getAttribute(".lang-switch", "href")).toBe("/portal/product/2");
    await page.waitForFunction(() => document.title === "Qinghe Intelligence - Qinghe EG-500 Edge Computing Gateway");
    // The English data came from the English keys, and the page was never reloaded.
    expect(apiRequests).toContain("GET /api/portal/product/product/2?lang=en");
    expect(apiRequests.filter((r) => r.includes("/product/product/2") && !r.includes("lang=en"))).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

    // Links stay in English; an untranslated notice is shown in Chinese, marked and announced.
    await page.click(".site-footer a[href='/portal/en/message/notice/list.html']");
    await page.waitForURL(/\/portal\/en\/message\/notice\/list\.html$/);
    await page.locator(".msg-item[lang='zh-CN'] a").first().click();
    await page.waitForSelector("main .lang-notice");
    expect(await page.textContent("main .lang-notice")).toBe("This content is available in Chinese only.");
    expect(await page.getAttribute("main h1", "lang")).toBe("zh-CN");

    await page.goBack();
    await page.goBack();
    await page.waitForURL(`${env.site.origin}/portal/en/product/2`);
    await page.click(".lang-switch");
    await page.waitForURL(`${env.site.origin}/portal/product/2`);
    await page.waitForFunction(() => document.documentElement.lang === "zh-CN");
    expect(await page.textContent("main h1")).toBe("青禾边缘计算网关 EG-500");
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // Nothing remembers the choice beside the address.
    expect((await page.context().cookies()).find((c) => c.name === "portal_lang")).toBeUndefined();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("takes an old ?lang= link to the page's English address, which hydrates as it was rendered", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/about/index.html?lang=en`);
    await hydrated(page);
    expect(page.url()).toBe(`${env.site.origin}/portal/en/about/index.html`);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    expect(await page.locator("main").textContent()).toContain("About Qinghe Intelligence");
    expect(await page.getAttribute("#site-menu a[href^='/portal/en/about/member/']", "href")).toBe("/portal/en/about/member/index.html");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("asks for a page's data beside its code on client navigation, and renders it from that one answer", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/index.html`);
    await hydrated(page);
    const jobCalls: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/portal/job/job/list")) jobCalls.push(request.url());
    });
    const release = await holdRequests(page, "**/portal/assets/job-list-*.js");
    const asked = page.waitForRequest((request) => request.url().includes("/api/portal/job/job/list"));
    await page.click(".site-footer a[href='/portal/job/society/index.html']");
    // The job list's code is held: its data is on its way all the same.
    await asked;
    expect(await page.locator(".job-list").count()).toBe(0);
    release();
    await page.locator(".job-list .job-item").first().waitFor();
    expect(jobCalls).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("shows the error state when the data asked for beside a page's code fails, and its retry brings the page", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/index.html`);
    await hydrated(page);
    const recover = await failRequests(page, "**/api/portal/job/job/list**");
    const release = await holdRequests(page, "**/portal/assets/job-list-*.js");
    const failed = page.waitForResponse((response) => response.url().includes("/api/portal/job/job/list") && response.status() === 502);
    await page.click(".site-footer a[href='/portal/job/society/index.html']");
    // The call made beside the held code has failed before the page can render.
    await failed;
    release();
    const retry = page.locator("main .page-state-error[role=alert] button");
    await retry.waitFor();
    expect(await page.locator(".job-list .job-item").count()).toBe(0);
    recover();
    await retry.click();
    await page.locator(".job-list .job-item").first().waitFor();
    expect(await page.locator("main .page-state-error").count()).toBe(0);
    // Nothing went wrong in the page beyond the failed answers themselves.
    expect(problems.filter((p) => !p.includes("status of 502"))).toEqual([]);
    await page.context().close();
  });

  it("runs no animation on a page at rest: the loading bar moves only while it shows, off the main thread", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    // The names and animated properties of the page's running animations (pseudo-elements' included).
    const running = () =>
      page.evaluate(() =>
        document
          .getAnimations()
          .filter((animation) => animation.playState === "running")
          .map((animation) => {
            const name = animation instanceof CSSAnimation ? animation.animationName : "other";
            const frames = animation.effect instanceof KeyframeEffect ? animation.effect.getKeyframes() : [];
            return `${name}: ${[...new Set(frames.flatMap((frame) => Object.keys(frame).filter((key) => !["offset", "computedOffset", "easing", "composite"].includes(key))))].join(",")}`;
          }),
      );
    await page.goto(`${env.site.origin}/portal/about/index.html`);
    await hydrated(page);
    expect(await running()).toEqual([]);

    const release = await followWithDataHeld(page, NOTICE_LIST, NOTICE_LIST_DATA);
    // By a transform, which the compositor animates (a box property would lay the header out
    // every frame), as is the loading state's spinner beside it.
    const moving = await running();
    expect(moving).toContain("nav-progress: transform");
    // The bar's own 150 ms delay is a transition of visibility, which does nothing between its ends: it may still be
    // finishing as the bar shows.
    expect(moving.filter((animation) => !/: (transform|opacity|visibility)(,(transform|opacity|visibility))*$/.test(animation))).toEqual(
      [],
    );
    release();
    await page.locator(".nav-progress.is-active").waitFor({ state: "detached" });
    await page.locator("main a[href^='/portal/message/notice/']").first().waitFor();
    expect(await running()).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("shows the loading bar still, across the header, to a visitor who asks for reduced motion", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(`${env.site.origin}/portal/about/index.html`);
    await hydrated(page);
    const release = await followWithDataHeld(page, NOTICE_LIST, NOTICE_LIST_DATA);
    const bar = await page.evaluate(() => {
      const element = document.querySelector(".nav-progress") as HTMLElement;
      const stripe = getComputedStyle(element, "::before");
      return {
        moving: document.getAnimations().some((a) => a instanceof CSSAnimation && a.animationName === "nav-progress"),
        across: Number.parseFloat(stripe.width) === element.getBoundingClientRect().width,
        transform: stripe.transform,
      };
    });
    expect(bar).toEqual({ moving: false, across: true, transform: "none" });
    release();
    await page.locator(".nav-progress.is-active").waitFor({ state: "detached" });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("updates the document title on client navigation, and shows the loading bar until the next page's data arrives", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/index.html`);
    await hydrated(page);
    await page.click(".site-footer a[href='/portal/about/member/index.html']");
    await page.waitForFunction(() => document.title === "青禾数智 - 杭州青禾数智科技有限公司创始团队");

    // The notice list's answer is held until the bar has been seen.
    const release = await followWithDataHeld(page, NOTICE_LIST, NOTICE_LIST_DATA);
    release();
    await page.locator(".nav-progress.is-active").waitFor({ state: "detached" });
    await page.waitForFunction(() => document.title === "青禾数智 - 通知公告");

    const detail = page.locator("main a[href^='/portal/message/notice/']:not([href*='list'])").first();
    const id = Number(/\/(\d+)$/.exec((await detail.getAttribute("href")) ?? "")?.[1]);
    const notice = (await (await fetch(`${env.site.origin}/api/portal/message/notice/${id}`)).json()) as { data: { title: string } };
    await detail.click();
    await page.waitForFunction((title) => document.title === title, `青禾数智 - ${notice.data.title}`);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
