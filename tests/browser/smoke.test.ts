import { expect, it } from "vitest";
import { describeInBrowser, openWatchedPage } from "../support/browser/chromium.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { useDemoSiteInBrowser } from "../support/browser/site.ts";

describeInBrowser("the built site in Chromium", () => {
  const env = useDemoSiteInBrowser();

  it("hydrates the home page without console errors and without fetching data the HTML holds", async () => {
    const { page, problems, apiRequests, failedRequests } = await openWatchedPage(env.browser);
    await page.goto(`${env.site.origin}/portal/index.html`);
    await hydrated(page);
    expect(problems).toEqual([]);
    expect(failedRequests).toEqual([]);
    expect(apiRequests).toEqual([]);
    await page.context().close();
  });
});
