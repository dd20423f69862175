/**
 * The home page's carousel in Chromium on the demo site, built as production serves it: it
 * hydrates moving nothing, its headlines stay readable, and its autoplay, pausing and controls
 * (time driven by Playwright's clock, never by sleeps) and native scrolling under a finger work.
 */
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { describeInBrowser } from "../support/browser/chromium.ts";
import {
  currentSlide,
  DEMO_SLIDES,
  HOME,
  pauseClock,
  pointerAway,
  SCROLLING,
  tabIntoCarousel,
  toggleLabel,
  useDemoHomeInBrowser,
} from "../support/browser/home-page.ts";

describeInBrowser("the home page in Chromium (demo site)", () => {
  const { env, openHome } = useDemoHomeInBrowser();

  it("hydrates without console problems or data requests, and the carousel starting moves nothing", async () => {
    // The server's layout, as a visitor without JavaScript sees it.
    const still = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: false });
    const stillPage = await still.newPage();
    await stillPage.goto(`${env.site.origin}${HOME}`);
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
    // Real touch input through Chromium's input pipeline: a drag to the left past half the slide, then lift. However
    // slowly a busy machine sends it (no fling), the nearest snap point is the next slide; a fast one stops there too.
    const cdp = await page.context().newCDPSession(page);
    const y = box.y + box.height / 2;
    const touch = (type: "touchStart" | "touchMove" | "touchEnd", x?: number) =>
      cdp.send("Input.dispatchTouchEvent", { type, touchPoints: x === undefined ? [] : [{ x, y }] });
    await touch("touchStart", box.x + box.width * 0.9);
    for (let step = 1; step <= 10; step++) await touch("touchMove", box.x + box.width * (0.9 - step * 0.07));
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
});
