/**
 * The home page in Chromium, built as production serves it: the carousel's autoplay,
 * pausing and controls (time driven by Playwright's clock, never by sleeps) and its
 * native scrolling under a finger, the partner marquee's decision, the layout at three widths, and the custom layout's
 * markup and `useEval|` script against a stand-in upstream.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SITE_FILE } from "../../server/project-root.ts";
import { homeScriptSource } from "../../shared/home-script.ts";
import { describeInBrowser, launchChromium, openWatchedPage, type WatchedPage } from "../support/browser/chromium.ts";
import { startDemoSite, type TestSite } from "../support/browser/site.ts";
import { startBuiltSite } from "../support/built-site.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const HOME = "/portal/index.html";
const DEMO_SLIDES = (JSON.parse(readFileSync(DEMO_SITE_FILE, "utf8")) as { slides: { title: string }[] }).slides;
/** A smooth scroll across several slides can take over a second on a busy machine: wait for it to settle. */
const SCROLLING = { timeout: 5000 };

/** The partner wall hydrates once it comes near the viewport: scrolls to it and waits until it has decided which rows move. */
async function partnerWallDecided(page: Page): Promise<void> {
  await page.locator("#partner-wall").scrollIntoViewIfNeeded();
  await page.waitForSelector("#partner-wall[data-ready]", { state: "attached" });
}

async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  await page.waitForSelector(".carousel[data-ready]", { state: "attached" });
}

/** The 1-based number of the slide the carousel shows, by its current dot. */
const currentSlide = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll(".carousel-dot")].findIndex((dot) => dot.getAttribute("aria-current") === "true") + 1);

const toggleLabel = (page: Page) => page.getAttribute(".carousel-toggle", "aria-label");

/** Stops the page's clock a moment from now: from here on, time only moves when the test says so. */
async function pauseClock(page: Page): Promise<void> {
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 100);
}

/** Moves the pointer to the bottom of the viewport, away from the carousel. */
async function pointerAway(page: Page): Promise<void> {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.mouse.move(size.width - 5, size.height - 5);
}

async function tabIntoCarousel(page: Page): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => document.activeElement?.closest(".carousel") !== null)) return;
  }
  throw new Error("Tab never reached the carousel");
}

describeInBrowser("the home page in Chromium (demo site)", () => {
  let site: TestSite;
  let browser: Browser;

  beforeAll(async () => {
    site = await startDemoSite({});
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  async function openHome(options: { width?: number; clock?: boolean; reducedMotion?: boolean } = {}): Promise<WatchedPage> {
    const watched = await openWatchedPage(browser, options.width ?? 1280, 800);
    if (options.reducedMotion) await watched.page.emulateMedia({ reducedMotion: "reduce" });
    if (options.clock) await watched.page.clock.install();
    await watched.page.goto(`${site.origin}${HOME}`);
    await waitForHydration(watched.page);
    await pointerAway(watched.page);
    return watched;
  }

  it("lays the first section out with the page, on the first screen at both widths, and the sections below only near the screen", async () => {
    for (const [width, height] of [
      [375, 667],
      [1280, 800],
    ] as const) {
      const { page } = await openWatchedPage(browser, width, height);
      await page.goto(`${site.origin}${HOME}`);
      const sections = await page.evaluate(() =>
        [...document.querySelectorAll("#home-content > .home-section")].map((section) => ({
          top: section.getBoundingClientRect().top,
          contentVisibility: getComputedStyle(section).contentVisibility,
        })),
      );
      const [first, ...below] = sections;
      // A placeholder on the first screen would only cost a second layout as the page starts.
      expect(first?.top).toBeLessThan(height);
      expect(first?.contentVisibility).toBe("visible");
      expect(below.length).toBeGreaterThan(0);
      expect(below.map((section) => section.contentVisibility)).toEqual(below.map(() => "auto"));
      await page.context().close();
    }
  });

  it("hydrates without console problems or data requests, and the carousel starting moves nothing", async () => {
    // The server's layout, as a visitor without JavaScript sees it.
    const still = await browser.newContext({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: false });
    const stillPage = await still.newPage();
    await stillPage.goto(`${site.origin}${HOME}`);
    const boxesOf = (page: Page) =>
      page.evaluate(() => {
        const carousel = document.querySelector(".carousel")?.getBoundingClientRect();
        const first = document.querySelector(".carousel-slide img")?.getBoundingClientRect();
        const products = document.getElementById("product-list")?.getBoundingClientRect();
        return {
          carousel: [carousel?.width, carousel?.height],
          first: [first?.x, first?.width, first?.height],
          gap: (products?.top ?? 0) - (carousel?.top ?? 0),
        };
      });
    const before = await boxesOf(stillPage);
    expect(await stillPage.evaluate(() => (document.querySelector(".carousel-slide img") as HTMLImageElement).complete)).toBe(true);
    await still.close();

    const { page, problems, apiRequests, failedRequests } = await openHome();
    expect(await boxesOf(page)).toEqual(before);
    expect(before.carousel[1]).toBeCloseTo((1280 * 3) / 8, 0);
    expect(await page.isVisible(".carousel-next")).toBe(true);
    expect(problems).toEqual([]);
    expect(failedRequests).toEqual([]);
    expect(apiRequests).toEqual([]);
    await page.context().close();
  });

  it("shows every slide's headline as text that no control covers, at 375 px and wider", async () => {
    for (const width of [320, 375, 768, 1440]) {
      const { page, problems } = await openHome({ width });
      // Each slide's headline box, placed as it shows when that slide is the current one; the controls' boxes.
      const boxes = await page.evaluate(() => {
        const box = (r: DOMRect) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
        const carousel = document.querySelector(".carousel")?.getBoundingClientRect() as DOMRect;
        const headlines = [...document.querySelectorAll(".carousel-slide")].map((slide) => {
          const text = slide.querySelector(".carousel-title > span");
          const own = text?.getBoundingClientRect();
          const at = slide.getBoundingClientRect();
          const fontSize = text ? Number.parseFloat(getComputedStyle(text).fontSize) : 0;
          if (!own) return { text: "", fontSize, box: null };
          const dx = carousel.left - at.left;
          return {
            text: text?.textContent ?? "",
            fontSize,
            box: { left: own.left + dx, top: own.top, right: own.right + dx, bottom: own.bottom },
          };
        });
        const controls = [".carousel-prev", ".carousel-next", ".carousel-toggle", ".carousel-dots"].map((selector) => ({
          selector,
          box: box(document.querySelector(selector)?.getBoundingClientRect() as DOMRect),
        }));
        return { carousel: box(carousel), headlines, controls };
      });
      const overlaps = (a: typeof boxes.carousel, b: typeof boxes.carousel) =>
        a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      expect(boxes.headlines.map((h) => h.text)).toEqual(DEMO_SLIDES.slice(0, 10).map((slide) => slide.title));
      for (const [index, headline] of boxes.headlines.entries()) {
        const where = `slide ${index + 1} at ${width} px`;
        expect(headline.fontSize, where).toBeGreaterThanOrEqual(18);
        const box = headline.box as typeof boxes.carousel;
        // Inside the carousel, and under no control.
        expect(box.left >= boxes.carousel.left && box.right <= boxes.carousel.right, where).toBe(true);
        expect(box.top >= boxes.carousel.top && box.bottom <= boxes.carousel.bottom, where).toBe(true);
        expect(
          boxes.controls.filter((control) => overlaps(control.box, box)).map((c) => c.selector),
          where,
        ).toEqual([]);
      }
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });

  it("advances every 6 seconds, and not while the pointer is over the carousel", async () => {
    const { page, problems } = await openHome({ clock: true });
    await pauseClock(page);
    expect(await currentSlide(page)).toBe(1);
    await page.clock.runFor(6500);
    await expect.poll(() => currentSlide(page), SCROLLING).toBe(2);

    await page.hover(".carousel-viewport");
    await page.clock.runFor(13_000);
    expect(await currentSlide(page)).toBe(2);

    // Leaving starts a fresh 6 s: one step, not the two that 13 s would have made.
    await pointerAway(page);
    await page.clock.runFor(6500);
    await expect.poll(() => currentSlide(page), SCROLLING).toBe(3);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("waits while keyboard focus is inside, and its controls work from the keyboard", async () => {
    const { page, problems } = await openHome({ clock: true });
    await pauseClock(page);
    await tabIntoCarousel(page);
    expect(await page.evaluate(() => document.activeElement?.className)).toContain("carousel-toggle");
    await page.clock.runFor(13_000);
    expect(await currentSlide(page)).toBe(1);

    expect(await toggleLabel(page)).toBe("暂停自动播放");
    await page.keyboard.press("Enter");
    expect(await toggleLabel(page)).toBe("开始自动播放");

    await page.keyboard.press("Tab"); // previous
    await page.keyboard.press("Tab"); // next
    await page.keyboard.press("Enter");
    await expect.poll(() => currentSlide(page), SCROLLING).toBe(2);
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Space");
    await expect.poll(() => currentSlide(page), SCROLLING).toBe(1);
    await page.keyboard.press("Tab");
    for (let i = 0; i < 5; i++) await page.keyboard.press("Tab"); // dots 1 to 5
    await page.keyboard.press("Enter");
    await expect.poll(() => currentSlide(page), SCROLLING).toBe(5);

    // Paused by the button: leaving the carousel does not start it again.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.clock.runFor(13_000);
    expect(await currentSlide(page)).toBe(5);
    await page.click(".carousel-toggle");
    expect(await toggleLabel(page)).toBe("暂停自动播放");
    await pointerAway(page);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.clock.runFor(6500);
    await expect.poll(() => currentSlide(page), SCROLLING).toBe(6);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("moves to the next slide on a finger's swipe, the browser's own scrolling snapping to it", async () => {
    const { page, problems } = await openHome({ clock: true });
    await pauseClock(page);
    const box = await page.locator(".carousel-viewport").boundingBox();
    if (!box) throw new Error("no carousel");
    // Real touch input through Chromium's input pipeline: a short drag to the left, then lift.
    const cdp = await page.context().newCDPSession(page);
    const y = box.y + box.height / 2;
    const touch = (type: "touchStart" | "touchMove" | "touchEnd", x?: number) =>
      cdp.send("Input.dispatchTouchEvent", { type, touchPoints: x === undefined ? [] : [{ x, y }] });
    await touch("touchStart", box.x + box.width * 0.8);
    for (let step = 1; step <= 10; step++) await touch("touchMove", box.x + box.width * (0.8 - step * 0.04));
    await touch("touchEnd");
    await expect.poll(() => currentSlide(page), SCROLLING).toBe(2);
    // It rests exactly on the slide, not part way.
    await expect.poll(() => page.$eval(".carousel-viewport", (el) => el.scrollLeft / el.clientWidth), SCROLLING).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("moves with the Left and Right arrows while focus is inside, looping at both ends", async () => {
    const { page, problems } = await openHome({ clock: true });
    await pauseClock(page);
    await tabIntoCarousel(page);
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => currentSlide(page), SCROLLING).toBe(2);
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => currentSlide(page), SCROLLING).toBe(1);
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => currentSlide(page), SCROLLING).toBe(10);
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => currentSlide(page), SCROLLING).toBe(1);
    // Focus inside holds autoplay.
    await page.clock.runFor(13_000);
    expect(await currentSlide(page)).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("autoplays from the last slide back to the first", async () => {
    const { page, problems } = await openHome({ clock: true });
    await pauseClock(page);
    await page.click(".carousel-dot:last-child");
    await expect.poll(() => currentSlide(page), SCROLLING).toBe(10);
    await pointerAway(page);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.clock.runFor(6500);
    await expect.poll(() => currentSlide(page), SCROLLING).toBe(1);
    await expect.poll(() => page.$eval(".carousel-viewport", (el) => el.scrollLeft), SCROLLING).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("shows the partner wall after a client navigation away and back, though it was not needed before", async () => {
    const { page, problems } = await openHome();
    expect(await page.locator("#partner-wall[data-ready]").count()).toBe(0);
    await page.locator('header a[href="/portal/about/index.html"]').first().click();
    await page.waitForURL(/\/about\/index\.html$/);
    await page.goBack();
    await page.waitForURL(/\/index\.html$/);
    await partnerWallDecided(page);
    expect(await page.locator(".partner-row").count()).toBe(4);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("does not autoplay or move the partner rows for visitors who ask for reduced motion", async () => {
    const { page, problems } = await openHome({ clock: true, reducedMotion: true });
    await pauseClock(page);
    expect(await toggleLabel(page)).toBe("开始自动播放");
    await page.clock.runFor(13_000);
    expect(await currentSlide(page)).toBe(1);
    await partnerWallDecided(page);
    expect(await page.locator(".partner-row").count()).toBe(4);
    expect(await page.locator(".partner-row.is-moving").count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("fetches the English strings and content only when the visitor turns to English, then shows the home page in English", async () => {
    const { page, problems, apiRequests } = await openHome();
    const englishScripts = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .map((entry) => entry.name)
          .filter((name) => /\/messages-en-[\w-]+\.js$/.test(name)),
      );
    expect(await englishScripts()).toEqual([]);
    expect(await page.getAttribute(".carousel-next", "aria-label")).toBe("下一张");

    await page.click(".lang-switch");
    await page.waitForFunction(() => document.documentElement.lang === "en");
    expect(await page.getAttribute(".carousel", "aria-roledescription")).toBe("carousel");
    expect(await page.getAttribute(".carousel-next", "aria-label")).toBe("Next slide");
    expect(await page.getAttribute(".carousel-toggle", "aria-label")).toBe("Pause automatic slide show");
    expect(await page.textContent("#product-list h2")).toBe("Products");
    expect(await page.textContent(".skip-link")).toBe("Skip to main content");
    expect(await englishScripts()).toHaveLength(1);
    // The English page's content, asked for once each, in English; nothing before the switch.
    expect(apiRequests.length).toBeGreaterThan(0);
    expect(apiRequests.every((request) => request.includes("lang=en"))).toBe(true);
    expect(new Set(apiRequests).size).toBe(apiRequests.length);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("moves partner rows that do not fit, alternating 20 s and 16 s, with the copy hidden", async () => {
    const { page, problems } = await openHome();
    await partnerWallDecided(page);
    const rows = await page.$$eval(".partner-row", (elements) =>
      elements.map((row) => ({
        moving: row.classList.contains("is-moving"),
        duration: getComputedStyle(row.querySelector(".partner-track") as Element).animationDuration,
        shown: row.querySelectorAll(".partner:not([aria-hidden])").length,
        copies: row.querySelectorAll('.partner[aria-hidden="true"] a[tabindex="-1"]').length,
      })),
    );
    expect(rows).toEqual([
      { moving: true, duration: "20s", shown: 10, copies: 10 },
      { moving: true, duration: "16s", shown: 10, copies: 10 },
      { moving: true, duration: "20s", shown: 10, copies: 10 },
      { moving: true, duration: "16s", shown: 15, copies: 15 },
    ]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("lays the grids out in 4 columns wide, 2 at 768 px, and 2 or 1 at 375 px, without sideways scrolling", async () => {
    for (const [width, products, services, messages] of [
      [1280, 4, 4, 2],
      [768, 2, 2, 1],
      [375, 2, 1, 1],
    ] as const) {
      const { page, problems } = await openHome({ width });
      const columns = (selector: string) =>
        page.$eval(selector, (element) => getComputedStyle(element).gridTemplateColumns.split(" ").filter(Boolean).length);
      expect(await columns("#product-list .home-grid"), `${width}`).toBe(products);
      expect(await columns("#service-list .home-grid"), `${width}`).toBe(services);
      expect(await columns("#message-list"), `${width}`).toBe(messages);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await page.$eval("#product-list", (el) => getComputedStyle(el).scrollMarginTop)).toBe("75px");
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });
});

interface StandInSite {
  origin: string;
  upstream: StandInUpstream;
  close(): Promise<void>;
}

/** The built site over a stand-in upstream, for content the demo does not have. */
async function startStandInSite(routes: Record<string, unknown>, env: Record<string, string> = {}): Promise<StandInSite> {
  const upstream = await startStandInUpstream(routes);
  const site = await startBuiltSite({ API_BASE_URL: upstream.url, ...env });
  return {
    origin: site.origin,
    upstream,
    async close() {
      await site.close();
      await upstream.close();
    },
  };
}

const MARKUP = '<section class="custom-block"><h2>定制首页内容</h2><p>这是运营配置的首页内容。</p></section>';
const SCRIPT_BODY = [
  "container.dataset.ran = String(Number(container.dataset.ran || 0) + 1);",
  'container.dataset.sections = String(container.querySelectorAll("section").length);',
].join("\n");

describeInBrowser("the home page's custom layout in Chromium (stand-in upstream)", () => {
  let browser: Browser;
  let demo: {
    slides: { title: string; url: string; img: string }[];
    products: unknown[];
    services: unknown[];
    news: unknown[];
    notices: unknown[];
    partners: unknown[];
  };

  beforeAll(async () => {
    demo = JSON.parse(await readFile(DEMO_SITE_FILE, "utf8"));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Demo content (its images are served under /portal/media), with the given layout, home html and partners. */
  function routes(themePortal: string, html: string, partners = demo.partners): Record<string, unknown> {
    const paged = (items: unknown[]) => ({ pageDataList: items.slice(0, 4), totalCount: items.length, totalPageCount: 1 });
    return {
      "/api/portal/sys/syscfg": { themePortal, metaKeywords: "", metaDescription: "", copyright: "©", record: "", edi: "" },
      "/api/portal/sys/sysauthor": { name: "测试公司", fname: "测试科技有限公司", logo: "", phone: "", email: "" },
      "/api/portal/sys/menu/list": [],
      "/api/portal/message/indexslide/list": demo.slides,
      "/api/portal/product/product/list": demo.products,
      "/api/portal/service/service/list": demo.services,
      "/api/portal/message/news/list": paged(demo.news),
      "/api/portal/message/notice/list": paged(demo.notices),
      "/api/portal/crm/partner/list": partners,
      "/api/portal/sys/indexhtml": { html },
    };
  }

  async function open(site: StandInSite, width = 1280): Promise<WatchedPage> {
    const watched = await openWatchedPage(browser, width, 800);
    await watched.page.goto(`${site.origin}${HOME}`);
    await waitForHydration(watched.page);
    return watched;
  }

  it("shows the custom markup right after the content container", async () => {
    const site = await startStandInSite(routes("1,2", MARKUP));
    try {
      const { page, problems, apiRequests } = await open(site);
      expect(await page.isVisible("#home-custom h2")).toBe(true);
      expect(await page.textContent("#home-custom")).toContain("这是运营配置的首页内容。");
      expect(await page.evaluate(() => document.getElementById("home-content")?.nextElementSibling?.id)).toBe("home-custom");
      expect(problems).toEqual([]);
      expect(apiRequests).toEqual([]);
      await page.context().close();
    } finally {
      await site.close();
    }
  });

  it("runs a useEval| script exactly once, after hydration, with the content container", async () => {
    const site = await startStandInSite(routes("1,2", `useEval|${SCRIPT_BODY}`));
    try {
      const { page, problems } = await open(site);
      await page.waitForSelector("#home-content[data-ran]", { state: "attached" });
      // Re-renders (a slide change, the pause button) do not run it again.
      await page.click(".carousel-next");
      await expect.poll(() => currentSlide(page), SCROLLING).toBe(2);
      await page.click(".carousel-toggle");
      const state = await page.evaluate((source) => {
        const container = document.getElementById("home-content");
        return {
          ran: container?.dataset.ran,
          sections: Number(container?.dataset.sections),
          scripts: [...document.body.querySelectorAll("script")].filter((s) => s.textContent === source).length,
          custom: document.getElementById("home-custom")?.innerHTML,
        };
      }, homeScriptSource(SCRIPT_BODY));
      expect(state).toEqual({ ran: "1", sections: 0, scripts: 1, custom: "" });
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await site.close();
    }
  });

  it("does not run the script when the operator turned it off", async () => {
    const site = await startStandInSite(routes("1,2", `useEval|${SCRIPT_BODY}`), { PORTAL_HOME_SCRIPT: "off" });
    try {
      const { page, problems } = await open(site);
      // The carousel's readiness is set by an effect of the same commit as the script's.
      expect(await page.evaluate(() => document.getElementById("home-content")?.dataset.ran)).toBeUndefined();
      expect(await page.evaluate(() => document.body.querySelectorAll("script:not([src]):not([type])").length)).toBe(0);
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await site.close();
    }
  });

  it("shows a slide and a partner whose url is javascript: as plain content with no link, and hydrates them without a mismatch", async () => {
    const [firstPartner, ...otherPartners] = demo.partners as { logo: string; url: string }[];
    const hostile = routes("1,1", MARKUP, [{ ...firstPartner, url: "javascript:alert(1)" }, ...otherPartners.slice(0, 4)]);
    const [firstSlide, ...otherSlides] = demo.slides;
    hostile["/api/portal/message/indexslide/list"] = [{ ...firstSlide, url: " javascript:alert(1)" }, ...otherSlides];
    const site = await startStandInSite(hostile);
    try {
      const { page, problems } = await open(site);
      await partnerWallDecided(page);
      const links = (selector: string) =>
        page.$$eval(selector, (items) => items.map((item) => [...item.querySelectorAll("a")].map((a) => a.protocol)));
      const slides = await links(".carousel-slide");
      expect(slides[0]).toEqual([]);
      expect(slides.slice(1).every((protocols) => protocols.length === 1 && /^https?:$/.test(protocols[0] ?? ""))).toBe(true);
      expect((await links(".partner:not([aria-hidden])")).map((protocols) => protocols.length)).toEqual([0, 1, 1, 1, 1]);
      // The item itself still shows: the slide's picture and the partner's logo.
      expect(await page.locator(".carousel-slide").first().locator("img").isVisible()).toBe(true);
      expect(await page.locator(".partner").first().locator("img").count()).toBe(1);
      // A click on the unlinked slide goes nowhere and runs nothing.
      await page
        .locator(".carousel-slide")
        .first()
        .click({ position: { x: 300, y: 100 } });
      expect(page.url()).toBe(`${site.origin}${HOME}`);
      expect(await page.locator('a[href*="javascript:" i]').count()).toBe(0);
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await site.close();
    }
  });

  describe("a single row of 5 partners", () => {
    it("stays still where 5 fit (1280 px) and moves where they do not (375 px)", async () => {
      const site = await startStandInSite(routes("1,1", MARKUP, demo.partners.slice(0, 5)));
      try {
        for (const [width, moving] of [
          [1280, false],
          [375, true],
        ] as const) {
          const { page, problems } = await open(site, width);
          await partnerWallDecided(page);
          expect(await page.locator(".partner-row").count()).toBe(1);
          expect(await page.locator(".partner-row.is-moving").count()).toBe(moving ? 1 : 0);
          expect(await page.locator(".partner").count()).toBe(moving ? 10 : 5);
          expect(await page.isVisible("#home-custom")).toBe(false);
          expect(problems).toEqual([]);
          await page.context().close();
        }
      } finally {
        await site.close();
      }
    });
  });
});
