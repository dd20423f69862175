/**
 * The home page in Chromium, for its browser suites: the waits and readings of the carousel
 * and the partner wall, and the demo site with one Chromium for the calling file, whose
 * `openHome` opens the hydrated home page with the pointer away from the carousel.
 */
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { DEMO_SITE_FILE } from "../../../server/project-root.ts";
import { openWatchedPage, type WatchedPage } from "./chromium.ts";
import { hydrated } from "./hydrated.ts";
import { useDemoSiteInBrowser } from "./site.ts";

export const HOME = "/portal/index.html";
export const DEMO_SLIDES = (JSON.parse(readFileSync(DEMO_SITE_FILE, "utf8")) as { slides: { title: string }[] }).slides;
/** A smooth scroll across several slides can take over a second on a busy machine: wait for it to settle. */
export const SCROLLING = { timeout: 5000 };

/** The partner wall hydrates once it comes near the viewport: scrolls to it and waits until it has decided which rows move. */
export async function partnerWallDecided(page: Page): Promise<void> {
  await page.locator("#partner-wall").scrollIntoViewIfNeeded();
  await page.waitForSelector("#partner-wall[data-ready]", { state: "attached" });
}

export async function waitForHydration(page: Page): Promise<void> {
  await hydrated(page);
  await page.waitForSelector(".carousel[data-ready]", { state: "attached" });
}

/** The 1-based number of the slide the carousel shows, by its current dot. */
export const currentSlide = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll(".carousel-dot")].findIndex((dot) => dot.getAttribute("aria-current") === "true") + 1);

export const toggleLabel = (page: Page) => page.getAttribute(".carousel-toggle", "aria-label");

/**
 * Stops the page's clock a moment from now: from here on, time only moves when the test says so. On a busy machine
 * that moment may have passed by the time the pause arrives (the clock refuses to go back): then it reads the time again.
 */
export async function pauseClock(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const now = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(now + 100);
      return;
    } catch (err) {
      if (attempt >= 20 || !String(err).includes("to the past")) throw err;
    }
  }
}

/** Moves the pointer to the bottom of the viewport, away from the carousel. */
export async function pointerAway(page: Page): Promise<void> {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.mouse.move(size.width - 5, size.height - 5);
}

export async function tabIntoCarousel(page: Page): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => document.activeElement?.closest(".carousel") !== null)) return;
  }
  throw new Error("Tab never reached the carousel");
}

/** The demo site and Chromium for the calling file (`env`), and `openHome` on them. */
export function useDemoHomeInBrowser() {
  const env = useDemoSiteInBrowser();
  async function openHome(options: { width?: number; clock?: boolean; reducedMotion?: boolean } = {}): Promise<WatchedPage> {
    const watched = await openWatchedPage(env.browser, options.width ?? 1280, 800);
    if (options.reducedMotion) await watched.page.emulateMedia({ reducedMotion: "reduce" });
    if (options.clock) await watched.page.clock.install();
    await watched.page.goto(`${env.site.origin}${HOME}`);
    await waitForHydration(watched.page);
    await pointerAway(watched.page);
    return watched;
  }
  return { env, openHome };
}
