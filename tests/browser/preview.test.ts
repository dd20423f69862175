/**
 * An editor's preview in Chromium on the built demo site (docs/behaviour.md#preview): a link clicked inside it
 * navigates in the page and stays a preview (the banner, its exit link following), its data read through the
 * preview's own calls, each answered private, no-store: nothing a visitor's cache could keep, no reader counted.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseConfig } from "../../server/config.ts";
import { previewLinkOf } from "../../server/preview/preview.ts";
import { describeInBrowser, launchChromium, openWatchedPage } from "../support/browser/chromium.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { startDemoSite, type TestSite } from "../support/browser/site.ts";
import { newPurgeSecret } from "../support/purge-request.ts";

const SECRET = newPurgeSecret();

describeInBrowser("a preview in Chromium", () => {
  let site: TestSite;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    site = await startDemoSite({ PREVIEW_SECRET: SECRET });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it("keeps the banner through a link clicked inside it and fetches nothing cacheable; its exit ends it", async () => {
    const [secret] = parseConfig({ PREVIEW_SECRET: SECRET }).preview.secrets;
    if (!secret) throw new Error("no secret");
    const { page, problems, apiRequests } = await openWatchedPage(browser);
    const previewData: { url: string; cacheControl: string | undefined }[] = [];
    page.on("response", (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith("/portal/_preview/api/"))
        previewData.push({ url: url.pathname, cacheControl: response.headers()["cache-control"] });
    });
    const list = "/portal/message/news/list.html";
    await page.goto(`${site.origin}${previewLinkOf(list, Math.floor(Date.now() / 1000) + 600, secret)}`);
    await page.waitForURL(`${site.origin}${list}`);
    await hydrated(page);
    const banner = page.getByRole("region", { name: "预览" });
    await expect(banner.getByRole("link", { name: "退出预览" }).getAttribute("href")).resolves.toBe(
      `/portal/_preview/exit?path=${encodeURIComponent(list)}`,
    );
    // Marked on this document: a full load would lose it.
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });

    const detail = "/portal/message/news/33";
    await page.locator(`main a[href="${detail}"]`).first().click();
    await page.waitForURL(`${site.origin}${detail}`);
    await page.locator("main h1").first().waitFor();
    await page.waitForFunction(() => document.querySelector(".reader-count")?.getAttribute("aria-busy") === "false");
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await expect(banner.getByRole("link", { name: "退出预览" }).getAttribute("href")).resolves.toBe(
      `/portal/_preview/exit?path=${encodeURIComponent(detail)}`,
    );
    expect(previewData.length).toBeGreaterThan(0);
    for (const answer of previewData) expect(answer, answer.url).toMatchObject({ cacheControl: "private, no-store" });
    // Nothing went to the visitors' API: no cacheable answer, no reader counted.
    expect(apiRequests).toEqual([]);

    await banner.getByRole("link", { name: "退出预览" }).click();
    await page.waitForURL(`${site.origin}${detail}`);
    await hydrated(page);
    expect(await page.getByRole("region", { name: "预览" }).count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
