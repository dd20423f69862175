/**
 * The inner pages in Chromium, on the built site with the demo content: they hydrate
 * from the server's data without fetching it again, navigate on the client, and page and
 * filter through the URL.
 */
import { expect, it } from "vitest";
import { describeInBrowser, holdRequests, openWatchedPage } from "../support/browser/chromium.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { headingIs, markDocument, sameDocument, texts, urlOf, useDemoPagesInBrowser } from "../support/browser/inner-pages.ts";
import { demo, jobsOf, NEWS } from "../support/demo-lists.ts";

describeInBrowser("the inner pages in Chromium", () => {
  const { env, open, expectClean } = useDemoPagesInBrowser();

  it("hydrates every inner page from the HTML without fetching its data again", { timeout: 120_000 }, async () => {
    const watched = await openWatchedPage(env.browser);
    for (const path of [
      "/portal/about/index.html",
      "/portal/about/member/index.html",
      "/portal/about/milepost/index.html",
      "/portal/message/news/list.html?page=2&size=10",
      "/portal/message/notice/list.html",
      `/portal/message/notice?id=${demo.notices[0]?.id}`,
      "/portal/product?id=3",
      "/portal/service/2",
      "/portal/job/society/index.html?jobTypeIds=1,2&jobAddrIds=1",
      "/portal/job/school/index.html",
      `/portal/job/school/${jobsOf(2)[0]?.id}`,
      "/portal/message/news/999999",
    ]) {
      for (const list of [watched.apiRequests, watched.problems, watched.failedRequests]) list.length = 0;
      await watched.page.goto(`${env.site.origin}${path}`);
      await hydrated(watched.page);
      // A news or notice detail counts its reader; let that finish before leaving the page.
      if (path.includes("/message/notice?id=")) await watched.page.locator(".reader-count:not(:empty)").waitFor();
      // A detail counts its reader (and reads the count back), and the timeline may start on its next page
      // at once (its end is near on a tall screen); nothing the HTML holds is fetched.
      expect(
        watched.apiRequests.filter((r) => !r.includes("/reader/reader") && !r.includes("/plan/milepost/list?pageIndex=1&")),
        path,
      ).toEqual([]);
      // The unknown id's page is itself a 404, which Chromium reports on its console.
      const notFound = path.endsWith("999999");
      expect(
        watched.problems.filter((p) => !(notFound && p.includes("status of 404"))),
        path,
      ).toEqual([]);
      expect(
        watched.failedRequests.filter((r) => !(notFound && r.endsWith(" 404"))),
        path,
      ).toEqual([]);
    }
    await watched.page.context().close();
  });

  it("navigates on the client between every kind of inner page by its links", { timeout: 90_000 }, async () => {
    const watched = await open("/portal/about/index.html");
    const { page } = watched;
    await markDocument(page);
    const follow = async (selector: string, heading?: string) => {
      const link = page.locator(selector).first();
      const href = (await link.getAttribute("href")) ?? "";
      const text = (await link.textContent()) ?? "";
      await link.click();
      await page.waitForURL(`${env.site.origin}${href}`);
      await headingIs(page, heading ?? text);
    };

    await follow('footer a[href="/portal/about/member/index.html"]', `${demo.sysauthor.fname}创始团队`);
    await follow('footer a[href="/portal/about/milepost/index.html"]', "发展历程");
    // The footer moves down while the timeline grows; it stays put once every milestone is in.
    await page.waitForFunction(() => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      return document.querySelector(".timeline-end") !== null;
    });
    await follow('footer a[href="/portal/message/news/list.html"]', "新闻动态");
    await follow(".msg-item-title a");
    await follow('main a[href="/portal/message/news/list.html"]', "新闻动态");
    await follow('footer a[href="/portal/message/notice/list.html"]', "通知公告");
    await follow(".msg-item-title a");
    await follow('footer a[href="/portal/job/society/index.html"]', "社会招聘");
    await follow(".job-item-name a");
    await follow('main a[href="/portal/job/society/index.html"]', "社会招聘");
    await follow('footer a[href="/portal/job/school/index.html"]', "校园招聘");
    await follow(".job-item-name a");
    await follow('footer a[href="/portal/about/index.html"]', "公司简介");
    // Products and services are reached from the home page's cards (its carousel opens links in a new tab).
    await page.locator('header a[href="/portal/index.html"]').first().click();
    await page.waitForURL(`${env.site.origin}/portal/index.html`);
    for (const kind of ["product", "service"]) {
      const card = page.locator(`main a[href^="/portal/${kind}/"]:not([target])`).first();
      await card.waitFor();
      const href = (await card.getAttribute("href")) ?? "";
      await card.click();
      await page.waitForURL(`${env.site.origin}${href}`);
      await page.locator("main h1").first().waitFor();
      await page.locator(".detail-body").waitFor();
      await page.goBack();
      await page.waitForURL(`${env.site.origin}/portal/index.html`);
    }
    expect(await sameDocument(page)).toBe(true);
    await expectClean(watched);
  });

  it("pages through the news by its links, size selector and jumper, the URL following", async () => {
    const watched = await open("/portal/message/news/list.html");
    const { page } = watched;
    await markDocument(page);
    const titles = () => texts(page, ".msg-item-title a");
    expect(await titles()).toEqual(NEWS.slice(0, 20).map((m) => m.title));

    await page.locator('.pager-page[aria-label="第 2 页"]').click();
    await page.waitForURL(/\/message\/news\/list\.html\?page=2$/);
    await page.waitForFunction((title) => document.querySelector(".msg-item-title a")?.textContent === title, NEWS[20]?.title);
    expect(await titles()).toEqual(NEWS.slice(20, 40).map((m) => m.title));
    expect(await page.locator('.pager-page[aria-current="page"]').textContent()).toBe("2");

    // A new size keeps the first item in view: item 21 is on page 3 of size 10.
    await page.selectOption("select[name=size]", "10");
    await page.waitForURL(/\?page=3&size=10$/);
    await page.waitForFunction(() => document.querySelectorAll(".msg-item-title a").length === 10);
    expect(await titles()).toEqual(NEWS.slice(20, 30).map((m) => m.title));

    await page.fill("input[name=page]", "4");
    await page.getByRole("button", { name: "确定" }).click();
    await page.waitForURL(/\?page=4&size=10$/);
    await page.waitForFunction((title) => document.querySelector(".msg-item-title a")?.textContent === title, NEWS[30]?.title);
    expect(await titles()).toEqual(NEWS.slice(30, 40).map((m) => m.title));

    await page.locator(".pager-step[rel=prev]").click();
    await page.waitForURL(/\?page=3&size=10$/);
    await page.waitForFunction((title) => document.querySelector(".msg-item-title a")?.textContent === title, NEWS[20]?.title);

    // Back goes to the previous list state.
    await page.goBack();
    await page.waitForURL(/\?page=4&size=10$/);
    await page.waitForFunction((title) => document.querySelector(".msg-item-title a")?.textContent === title, NEWS[30]?.title);
    expect(await sameDocument(page)).toBe(true);
    await expectClean(watched);
  });

  for (const width of [1280, 375]) {
    it(`filters jobs in a drawer that opens from its button, closes on Escape and returns focus, at ${width} px`, async () => {
      const watched = await open("/portal/job/society/index.html", width);
      const { page } = watched;
      await markDocument(page);
      const button = page.locator("button.job-filter-button");
      const drawer = page.locator("dialog.job-drawer");

      await button.click();
      await drawer.waitFor({ state: "visible" });
      expect(await page.evaluate(() => document.querySelector("dialog.job-drawer")?.contains(document.activeElement))).toBe(true);
      // Focus stays inside the open drawer however far the visitor tabs.
      for (let i = 0; i < 20; i++) {
        await page.keyboard.press("Tab");
        expect(await page.evaluate(() => document.querySelector("dialog.job-drawer")?.contains(document.activeElement))).toBe(true);
      }
      await page.keyboard.press("Escape");
      await drawer.waitFor({ state: "hidden" });
      expect(await page.evaluate(() => document.activeElement?.classList.contains("job-filter-button"))).toBe(true);
      expect(urlOf(page)).toBe("/portal/job/society/index.html");

      await button.click();
      await drawer.waitFor({ state: "visible" });
      await drawer.getByLabel("研发").check();
      await drawer.getByLabel("上海").check();
      await drawer.getByRole("button", { name: "应用筛选" }).click();
      await drawer.waitFor({ state: "hidden" });
      await page.waitForURL(/\/job\/society\/index\.html\?jobTypeIds=1&jobAddrIds=2$/);
      const expected = jobsOf(1, [1], [2]).map((j) => j.name);
      await page.waitForFunction((count) => document.querySelectorAll(".job-item").length === count, expected.length);
      expect(await texts(page, ".job-item-name a")).toEqual(expected);
      expect(await button.textContent()).toBe("筛选职位（2）");
      expect(await page.evaluate(() => document.activeElement?.classList.contains("job-filter-button"))).toBe(true);

      // Closing without applying forgets the unapplied choice.
      await button.click();
      await drawer.getByLabel("杭州").check();
      await drawer.getByRole("button", { name: "关闭" }).click();
      await drawer.waitFor({ state: "hidden" });
      await button.click();
      expect(await drawer.getByLabel("杭州").isChecked()).toBe(false);
      expect(await drawer.getByLabel("上海").isChecked()).toBe(true);
      await page.keyboard.press("Escape");

      await page.locator(".job-active a").click();
      await page.waitForURL(/\/job\/society\/index\.html$/);
      await page.waitForFunction((count) => document.querySelectorAll(".job-item").length === count, Math.min(20, jobsOf(1).length));
      expect(await sameDocument(page)).toBe(true);
      await expectClean(watched);
    });
  }

  it("keeps the job filter a visitor opened before the script arrived: open, as the drawer, with the same boxes ticked", async () => {
    const watched = await openWatchedPage(env.browser, 375);
    const { page } = watched;
    const release = await holdRequests(page, "**/portal/assets/index-*.js");
    await page.goto(`${env.site.origin}/portal/job/society/index.html`, { waitUntil: "domcontentloaded" });
    // Without the script, the filter is a disclosure holding the form.
    await page.click("details.job-filter-static > summary");
    await page.getByLabel("研发").check();
    release();
    await hydrated(page);
    const drawer = page.locator("dialog.job-drawer");
    await drawer.waitFor({ state: "visible" });
    expect(await page.locator("details.job-filter-static").count()).toBe(0);
    expect(await drawer.getByLabel("研发").isChecked()).toBe(true);
    expect(await drawer.getByLabel("上海").isChecked()).toBe(false);
    expect(await page.evaluate(() => document.querySelector("dialog.job-drawer")?.contains(document.activeElement))).toBe(true);
    await drawer.getByRole("button", { name: "应用筛选" }).click();
    await page.waitForURL(/\/job\/society\/index\.html\?jobTypeIds=1$/);
    await page.waitForFunction((count) => document.querySelectorAll(".job-item").length === count, jobsOf(1, [1], []).length);
    await expectClean(watched);
  });
});
