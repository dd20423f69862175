import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInBrowser, launchChromium, openWatchedPage } from "./support/chromium.ts";
import { startDemoSite, type TestSite } from "./support/site.ts";

describeInBrowser("the built site in Chromium", () => {
  let site: TestSite;
  let browser: Browser;

  beforeAll(async () => {
    site = await startDemoSite();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it("hydrates the home page without console errors and without fetching data the HTML holds", async () => {
    const { page, problems, apiRequests, failedRequests } = await openWatchedPage(browser);
    await page.goto(`${site.origin}/portal/index.html`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    expect(problems).toEqual([]);
    expect(failedRequests).toEqual([]);
    expect(apiRequests).toEqual([]);
    await page.context().close();
  });
});
