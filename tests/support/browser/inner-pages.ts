/**
 * The inner pages of the demo site in Chromium, for the browser suites that walk them: one
 * site and one Chromium for the calling file, a page opened at a path and hydrated, a check
 * that it logged no problem and lost no request, and the waits those suites share.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { openWatchedPage, type WatchedPage } from "./chromium.ts";
import { hydrated } from "./hydrated.ts";
import { useDemoSiteInBrowser } from "./site.ts";

export const headingIs = (page: Page, text: string) =>
  page.waitForFunction((want) => document.querySelector("main h1")?.textContent === want, text);
export const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();
/** Marks the document: a full page load would lose the mark. */
export const markDocument = (page: Page) => page.evaluate(() => Object.assign(window, { portalSameDocument: true }));
export const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { portalSameDocument?: boolean }).portalSameDocument === true);
export const urlOf = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

/** The demo site and Chromium for the calling file, with `open` (a hydrated page at `path`) and `expectClean`. */
export function useDemoPagesInBrowser() {
  const env = useDemoSiteInBrowser();
  const open = async (path: string, width = 1280, height = 800): Promise<WatchedPage> => {
    const watched = await openWatchedPage(env.browser, width, height);
    await watched.page.goto(`${env.site.origin}${path}`);
    await hydrated(watched.page);
    return watched;
  };
  const expectClean = async ({ page, problems, failedRequests }: WatchedPage) => {
    expect(problems).toEqual([]);
    expect(failedRequests).toEqual([]);
    await page.context().close();
  };
  return { env, open, expectClean };
}
