/**
 * The home page's layout in Chromium on the demo site, built as production serves it: the first
 * screen and the sections below, the partner marquee's decision, reduced motion, the turn to
 * English, and the grids at three widths.
 */
import { expect, it } from "vitest";
import { describeInBrowser, openWatchedPage } from "../support/browser/chromium.ts";
import { currentSlide, HOME, partnerWallDecided, pauseClock, toggleLabel, useDemoHomeInBrowser } from "../support/browser/home-page.ts";

describeInBrowser("the home page in Chromium (demo site)", () => {
  const { env, openHome } = useDemoHomeInBrowser();

  it("lays the first section out with the page, on the first screen at both widths, and the sections below only near the screen", async () => {
    for (const [width, height] of [
      [375, 667],
      [1280, 800],
    ] as const) {
      const { page } = await openWatchedPage(env.browser, width, height);
      await page.goto(`${env.site.origin}${HOME}`);
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
