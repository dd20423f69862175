/**
 * The inner pages in Chromium, on the built site with the demo content: milestones load on
 * scroll and retry a failed page, a reader is counted once, and the pages still work with
 * JavaScript off.
 */
import { expect, it } from "vitest";
import { formatYearMonth } from "../../shared/dates.ts";
import type { Message } from "../../shared/entities.ts";
import { describeInBrowser, failRequests, openWatchedPage } from "../support/browser/chromium.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { headingIs, texts, useDemoPagesInBrowser } from "../support/browser/inner-pages.ts";
import { jobsOf, MILESTONES, NEWS } from "../support/demo-lists.ts";

describeInBrowser("the inner pages in Chromium", () => {
  const { env, open, expectClean } = useDemoPagesInBrowser();

  it("loads further milestones as the visitor scrolls, until the last page", async () => {
    const watched = await open("/portal/about/milepost/index.html", 1280, 800);
    const { page, apiRequests } = watched;
    expect(await page.locator(".timeline-more").count()).toBe(0);
    await page.waitForFunction((total) => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      return document.querySelectorAll(".timeline-item").length >= total;
    }, MILESTONES.length);
    await page.locator(".timeline-end").waitFor();
    expect(await texts(page, ".timeline-brief")).toEqual(MILESTONES.map((m) => m.brief));
    expect(await texts(page, ".timeline-date")).toEqual(MILESTONES.map((m) => formatYearMonth(m.date)));
    expect(await page.locator(".timeline-sentinel").count()).toBe(0);
    // Each further page was fetched once; the first came with the HTML.
    const pages = apiRequests.filter((r) => r.includes("/plan/milepost/list"));
    expect(pages).toEqual([
      "GET /api/portal/plan/milepost/list?pageIndex=1&pageMaxCount=10",
      "GET /api/portal/plan/milepost/list?pageIndex=2&pageMaxCount=10",
    ]);
    await expectClean(watched);
  });

  it("offers a retry when a further milestone page fails, and goes on from there", async () => {
    const watched = await openWatchedPage(env.browser, 1280, 800);
    const { page } = watched;
    // The upstream answer for the second page fails until the visitor retries.
    const recover = await failRequests(page, "**/api/portal/plan/milepost/list?pageIndex=1&*");
    await page.goto(`${env.site.origin}/portal/about/milepost/index.html`);
    await hydrated(page);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const retry = page.locator(".timeline-status [role=alert] button");
    await retry.waitFor();
    expect(await page.locator(".timeline-item").count()).toBe(10);
    recover();
    await retry.click();
    await page.waitForFunction((total) => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      return document.querySelectorAll(".timeline-item").length >= total;
    }, MILESTONES.length);
    expect(await texts(page, ".timeline-brief")).toEqual(MILESTONES.map((m) => m.brief));
    expect(watched.problems.filter((p) => !p.includes("status of 502"))).toEqual([]);
    expect(watched.failedRequests.every((r) => r.includes("pageIndex=1&") && r.endsWith(" 502"))).toBe(true);
    await page.context().close();
  });

  it("counts a reader once per detail view and shows the count", async () => {
    const news = NEWS[5] as Message;
    const watched = await open(`/portal/message/news/${news.id}`);
    const { page, apiRequests } = watched;
    await page.waitForFunction(() => /^阅读 \d+$/.test(document.querySelector(".reader-count")?.textContent ?? ""));
    const first = Number((await page.locator(".reader-count").textContent())?.replace(/\D/g, ""));
    expect(first).toBeGreaterThanOrEqual(1);
    expect(apiRequests.filter((r) => r.startsWith("PUT "))).toEqual(["PUT /api/portal/reader/reader"]);
    expect(apiRequests).toContain(`GET /api/portal/reader/reader?pid=${news.id}&type=2`);

    // Another article, reached on the client, is one more view.
    await page.locator('main a[href="/portal/message/news/list.html"]').click();
    const other = page.locator(`.msg-item-title a[href="/portal/message/news/${NEWS[0]?.id}"]`);
    await other.click();
    await headingIs(page, NEWS[0]?.title ?? "");
    await page.waitForFunction(() => /^阅读 \d+$/.test(document.querySelector(".reader-count")?.textContent ?? ""));
    expect(apiRequests.filter((r) => r.startsWith("PUT "))).toHaveLength(2);
    expect(apiRequests).toContain(`GET /api/portal/reader/reader?pid=${NEWS[0]?.id}&type=2`);

    // A new page view of the first article counts again (the server may de-duplicate it; the count never drops).
    const again = await open(`/portal/en/message/news/${news.id}`);
    await again.page.waitForFunction(() => /^\d+ reads?$/.test(document.querySelector(".reader-count")?.textContent ?? ""));
    const shown = (await again.page.locator(".reader-count").textContent()) ?? "";
    const count = Number(shown.replace(/\D/g, ""));
    expect(count).toBeGreaterThanOrEqual(first);
    // English counts agree with their number: "1 read", "2 reads".
    expect(shown).toBe(count === 1 ? "1 read" : `${count} reads`);
    expect(again.apiRequests.filter((r) => r.startsWith("PUT "))).toHaveLength(1);
    await expectClean(again);
    await expectClean(watched);
  });

  it("works without JavaScript: paging form, job filter form and the next milestones link", async () => {
    const context = await env.browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    const page = await context.newPage();

    await page.goto(`${env.site.origin}/portal/message/news/list.html?page=2`);
    await page.selectOption("select[name=size]", "10");
    await page.getByRole("button", { name: "确定" }).click();
    await page.waitForURL(/\/message\/news\/list\.html\?size=10&page=$/);
    expect(await texts(page, ".msg-item-title a")).toEqual(NEWS.slice(0, 10).map((m) => m.title));
    await page.fill("input[name=page]", "3");
    await page.getByRole("button", { name: "确定" }).click();
    await page.waitForURL(/\?size=10&page=3$/);
    expect(await texts(page, ".msg-item-title a")).toEqual(NEWS.slice(20, 30).map((m) => m.title));

    await page.goto(`${env.site.origin}/portal/job/school/index.html`);
    await page.locator("summary.job-filter-button").click();
    await page.getByLabel("研发").check();
    await page.getByLabel("产品").check();
    await page.getByRole("button", { name: "应用筛选" }).click();
    await page.waitForURL(/jobTypeIds=1&jobTypeIds=2$/);
    expect(await texts(page, ".job-item-name a")).toEqual(
      jobsOf(2, [1, 2])
        .slice(0, 20)
        .map((j) => j.name),
    );
    expect(await page.getByLabel("研发").isChecked()).toBe(true);

    await page.goto(`${env.site.origin}/portal/about/milepost/index.html`);
    await page.locator(".timeline-more a").click();
    await page.waitForURL(/\/about\/milepost\/index\.html\?page=2$/);
    expect(await texts(page, ".timeline-brief")).toEqual(MILESTONES.slice(10, 20).map((m) => m.brief));
    await context.close();
  });
});
