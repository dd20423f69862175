/**
 * Site search in Chromium on the built demo site, at a phone's width and a desktop's:
 * searching from the header's form (its field opens on focus; at 768 px or less its button
 * opens the search page, whose own form takes the words) finds what docs/behaviour.md#search says, shows the
 * match in <mark>, and the page holds its layout at 375 px.
 */
import { beforeAll, expect, it } from "vitest";
import { describeInBrowser, openWatchedPage, type WatchedPage } from "../support/browser/chromium.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { useDemoSiteInBrowser } from "../support/browser/site.ts";

const CASES = [
  { q: "简单", title: "青禾边缘计算网关 EG-500", marked: "简单" },
  // 待处理 in a product's body: found, below the items that have 处理 in their title or brief.
  { q: "處理", title: "青禾云 设备运维 SaaS", marked: "处理", notFirst: true },
  { q: "学友", title: "青禾数智2025年度客户大会暨生态伙伴大会圆满落幕", marked: "學友" },
  { q: "robo", title: "青禾 Robotics R2 智能巡检机器人", marked: "Robotics" },
  { q: "Java 安全", title: "高级Java后端工程师", marked: "安全" },
];

describeInBrowser("site search in Chromium", () => {
  const env = useDemoSiteInBrowser();

  // The index is built in the background at start: a page searched before it is whole shows what was indexed so far.
  beforeAll(async () => {
    for (const { q, title } of CASES) {
      for (let i = 0; ; i++) {
        const res = await fetch(`${env.site.origin}/api/portal/search?q=${encodeURIComponent(q)}&pageMaxCount=100`);
        const { data } = (await res.json()) as { data: { pageDataList: { title: string }[] } };
        if (data.pageDataList.some((hit) => hit.title.replace(/[\uE000\uE001]/g, "") === title)) break;
        if (i >= 1200) throw new Error(`the search index never finds ${q}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }, 130_000);

  /** Searches from the header of the home page, as a visitor at this width would. */
  async function searchFromHeader(width: number, q: string): Promise<WatchedPage> {
    const watched = await openWatchedPage(env.browser, width, 800);
    const { page } = watched;
    await page.goto(`${env.site.origin}/portal/index.html`);
    await hydrated(page);
    const header = page.locator("header form[role=search]");
    if (width > 768) {
      // The field opens when it has the focus, as a keyboard's Tab gives it.
      await header.locator("input[name=q]").focus();
      await header.locator("input[name=q]").fill(q);
      await header.locator("input[name=q]").press("Enter");
    } else {
      await header.getByRole("button").click();
      await page.waitForURL(/\/portal\/search\.html/);
      const field = page.getByLabel("搜索关键词");
      await field.fill(q);
      await field.press("Enter");
    }
    await page.waitForFunction(() => document.querySelector(".search-count")?.textContent?.includes("共找到"));
    return watched;
  }

  for (const width of [375, 1280]) {
    for (const { q, title, marked, notFirst } of CASES) {
      it(`finds ${q} at ${width} px`, async () => {
        const { page, problems, failedRequests } = await searchFromHeader(width, q);
        await page.waitForFunction(
          (want) => [...document.querySelectorAll(".search-hit-title")].some((h) => h.textContent === want),
          title,
          { timeout: 20_000 },
        );
        const hit = page.locator(".search-hit", { hasText: title }).first();
        if (!notFirst) expect(await page.locator(".search-hit-title").first().textContent()).toBe(title);
        expect(await hit.locator("mark").allTextContents()).toContain(marked);
        expect(new URL(page.url()).searchParams.get("q")).toBe(q);
        // Nothing wider than the window.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        expect(problems).toEqual([]);
        expect(failedRequests).toEqual([]);
        await page.context().close();
      });
    }
  }

  it("opens the header's search field for typing when its button is clicked at 1280 px", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280, 800);
    await page.goto(`${env.site.origin}/portal/index.html`);
    await hydrated(page);
    await page.locator("header .header-search-button").click();
    await page.waitForFunction(() => document.activeElement?.id === "header-search-q");
    expect(new URL(page.url()).pathname).toBe("/portal/index.html");
    await page.keyboard.type("robo");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/portal\/search\.html\?q=robo/);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("opens a result's detail page from the list", async () => {
    const { page, problems } = await searchFromHeader(1280, "robo");
    await page.locator(".search-hit a").first().click();
    await page.waitForURL(/\/portal\/product\/3$/);
    await page.waitForFunction(() => document.querySelector("main h1")?.textContent?.includes("Robotics"));
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
