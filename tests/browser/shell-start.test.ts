/**
 * The site shell in Chromium, on the built demo site: hydration without warnings and only once
 * the stylesheet is in, the language switch's client navigation, a page's data asked for beside
 * its code, the loading bar and the title on client navigation.
 */
import { expect, it } from "vitest";
import { describeInBrowser, failRequests, followWithDataHeld, holdRequests, openWatchedPage } from "../support/browser/chromium.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { useDemoSiteInBrowser } from "../support/browser/site.ts";

/** The notice list, and its data, held to keep the loading bar showing during a client navigation. */
const NOTICE_LIST = "/portal/message/notice/list.html";
const NOTICE_LIST_DATA = "**/api/portal/message/notice/list**";

/** Pages whose hydration must raise no warning; 1100 px is a width where the English menu folds items into More. */
const HYDRATED_PAGES = [
  "/portal/index.html",
  "/portal/about/index.html",
  "/portal/message/news/list.html",
  "/portal/message/notice/1",
  "/portal/product/1",
  "/portal/job/society/index.html",
  "/portal/en/about/index.html",
  "/portal/en/message/notice/1",
];

describeInBrowser("the site shell in Chromium: start-up and client navigation", () => {
  const env = useDemoSiteInBrowser();

  for (const width of [1280, 1100, 375]) {
    it(`hydrates several pages at ${width} px without console errors or hydration warnings`, async () => {
      const { page, problems } = await openWatchedPage(env.browser, width);
      for (const path of HYDRATED_PAGES) {
        await page.goto(env.site.origin + path);
        await hydrated(page);
        expect(problems, `${path} at ${width}`).toEqual([]);
      }
      await page.context().close();
    });
  }

  it("starts hydrating only once the stylesheet has arrived, so the page is never laid out unstyled", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 375);
    const release = await holdRequests(page, "**/portal/assets/*.css");
    // Every other request of the page (its scripts and their chunks) is left to finish.
    let inFlight = 0;
    page.on("request", (request) => {
      if (!request.url().endsWith(".css")) inFlight += 1;
    });
    const finished = (request: { url(): string }) => {
      if (!request.url().endsWith(".css")) inFlight -= 1;
    };
    page.on("requestfinished", finished);
    page.on("requestfailed", finished);
    const hydrationStarted = () =>
      page.evaluate(() => Object.keys(document.getElementById("root") ?? {}).some((key) => key.startsWith("__reactContainer")));

    await page.goto(`${env.site.origin}/portal/job/society/index.html`, { waitUntil: "commit" });
    await page.waitForFunction(() => document.readyState !== "loading");
    await expect.poll(() => inFlight).toBe(0);
    // A few turns of the page's task queue: an entry that did not wait would have called hydrateRoot by now.
    for (let turn = 0; turn < 5; turn++) await page.evaluate(() => new Promise((resolve) => setTimeout(resolve)));
    expect(await hydrationStarted()).toBe(false);

    release();
    await hydrated(page);
    expect(await hydrationStarted()).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("hydrates all the same when the stylesheet fails, before the entry looks for it or after", async () => {
    for (const late of [false, true]) {
      const { page, problems } = await openWatchedPage(env.browser, 375);
      const fail = await holdRequests(page, "**/portal/assets/*.css", { status: 404, body: "" });
      if (!late) fail();
      await page.goto(`${env.site.origin}/portal/job/society/index.html`, { waitUntil: "commit" });
      if (late) {
        await page.waitForFunction(() => document.readyState !== "loading");
        fail();
      }
      await hydrated(page);
      await page.locator("button.job-filter-button").click();
      await page.locator("dialog.job-drawer").waitFor({ state: "visible" });
      expect(
        problems.filter((problem) => !problem.includes("404")),
        late ? "failing late" : "failing at once",
      ).toEqual([]);
      await page.context().close();
    }
  });

  it("switches to the same page in English by client navigation, with its English content, and back", async () => {
    const { page, problems, apiRequests } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/product/2`);
    await hydrated(page);
    expect(await page.textContent("main h1")).toBe("青禾边缘计算网关 EG-500");
    await page.evaluate(() => {
      (window as unknown as { sameDocument: boolean }).sameDocument = true;
    });

    await page.click(".lang-switch");
    await page.waitForURL(`${env.site.origin}/portal/en/product/2`);
    await page.waitForFunction(() => document.documentElement.lang === "en");
    // Interface and content arrive together: the heading is English as soon as the address is.
    expect(await page.textContent("main h1")).toBe("Qinghe EG-500 Edge Computing Gateway");
    expect(await page.textContent(".skip-link")).toBe("Skip to main content");
    expect(await page.locator("main").textContent()).not.toContain("32 TOPS 的 AI 算力");
    expect(await page.getAttribute(".lang-switch", "href")).toBe("/portal/product/2");
    await page.waitForFunction(() => document.title === "Qinghe Intelligence - Qinghe EG-500 Edge Computing Gateway");
    // The English data came from the English keys, and the page was never reloaded.
    expect(apiRequests).toContain("GET /api/portal/product/product/2?lang=en");
    expect(apiRequests.filter((r) => r.includes("/product/product/2") && !r.includes("lang=en"))).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

    // Links stay in English; an untranslated notice is shown in Chinese, marked and announced.
    await page.click(".site-footer a[href='/portal/en/message/notice/list.html']");
    await page.waitForURL(/\/portal\/en\/message\/notice\/list\.html$/);
    await page.locator(".msg-item[lang='zh-CN'] a").first().click();
    await page.waitForSelector("main .lang-notice");
    expect(await page.textContent("main .lang-notice")).toBe("This content is available in Chinese only.");
    expect(await page.getAttribute("main h1", "lang")).toBe("zh-CN");

    await page.goBack();
    await page.goBack();
    await page.waitForURL(`${env.site.origin}/portal/en/product/2`);
    await page.click(".lang-switch");
    await page.waitForURL(`${env.site.origin}/portal/product/2`);
    await page.waitForFunction(() => document.documentElement.lang === "zh-CN");
    expect(await page.textContent("main h1")).toBe("青禾边缘计算网关 EG-500");
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // Nothing remembers the choice beside the address.
    expect((await page.context().cookies()).find((c) => c.name === "portal_lang")).toBeUndefined();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("takes an old ?lang= link to the page's English address, which hydrates as it was rendered", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/about/index.html?lang=en`);
    await hydrated(page);
    expect(page.url()).toBe(`${env.site.origin}/portal/en/about/index.html`);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    expect(await page.locator("main").textContent()).toContain("About Qinghe Intelligence");
    expect(await page.getAttribute("#site-menu a[href^='/portal/en/about/member/']", "href")).toBe("/portal/en/about/member/index.html");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("asks for a page's data beside its code on client navigation, and renders it from that one answer", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/index.html`);
    await hydrated(page);
    const jobCalls: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/portal/job/job/list")) jobCalls.push(request.url());
    });
    const release = await holdRequests(page, "**/portal/assets/job-list-*.js");
    const asked = page.waitForRequest((request) => request.url().includes("/api/portal/job/job/list"));
    await page.click(".site-footer a[href='/portal/job/society/index.html']");
    // The job list's code is held: its data is on its way all the same.
    await asked;
    expect(await page.locator(".job-list").count()).toBe(0);
    release();
    await page.locator(".job-list .job-item").first().waitFor();
    expect(jobCalls).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("shows the error state when the data asked for beside a page's code fails, and its retry brings the page", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/index.html`);
    await hydrated(page);
    const recover = await failRequests(page, "**/api/portal/job/job/list**");
    const release = await holdRequests(page, "**/portal/assets/job-list-*.js");
    const failed = page.waitForResponse((response) => response.url().includes("/api/portal/job/job/list") && response.status() === 502);
    await page.click(".site-footer a[href='/portal/job/society/index.html']");
    // The call made beside the held code has failed before the page can render.
    await failed;
    release();
    const retry = page.locator("main .page-state-error[role=alert] button");
    await retry.waitFor();
    expect(await page.locator(".job-list .job-item").count()).toBe(0);
    recover();
    await retry.click();
    await page.locator(".job-list .job-item").first().waitFor();
    expect(await page.locator("main .page-state-error").count()).toBe(0);
    // Nothing went wrong in the page beyond the failed answers themselves.
    expect(problems.filter((p) => !p.includes("status of 502"))).toEqual([]);
    await page.context().close();
  });

  it("runs no animation on a page at rest: the loading bar moves only while it shows, off the main thread", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    // The names and animated properties of the page's running animations (pseudo-elements' included).
    const running = () =>
      page.evaluate(() =>
        document
          .getAnimations()
          .filter((animation) => animation.playState === "running")
          .map((animation) => {
            const name = animation instanceof CSSAnimation ? animation.animationName : "other";
            const frames = animation.effect instanceof KeyframeEffect ? animation.effect.getKeyframes() : [];
            return `${name}: ${[...new Set(frames.flatMap((frame) => Object.keys(frame).filter((key) => !["offset", "computedOffset", "easing", "composite"].includes(key))))].join(",")}`;
          }),
      );
    await page.goto(`${env.site.origin}/portal/about/index.html`);
    await hydrated(page);
    expect(await running()).toEqual([]);

    const release = await followWithDataHeld(page, NOTICE_LIST, NOTICE_LIST_DATA);
    // By a transform, which the compositor animates (a box property would lay the header out
    // every frame), as is the loading state's spinner beside it.
    const moving = await running();
    expect(moving).toContain("nav-progress: transform");
    // The bar's own 150 ms delay is a transition of visibility, which does nothing between its ends: it may still be
    // finishing as the bar shows.
    expect(moving.filter((animation) => !/: (transform|opacity|visibility)(,(transform|opacity|visibility))*$/.test(animation))).toEqual(
      [],
    );
    release();
    await page.locator(".nav-progress.is-active").waitFor({ state: "detached" });
    await page.locator("main a[href^='/portal/message/notice/']").first().waitFor();
    expect(await running()).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("shows the loading bar still, across the header, to a visitor who asks for reduced motion", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(`${env.site.origin}/portal/about/index.html`);
    await hydrated(page);
    const release = await followWithDataHeld(page, NOTICE_LIST, NOTICE_LIST_DATA);
    const bar = await page.evaluate(() => {
      const element = document.querySelector(".nav-progress") as HTMLElement;
      const stripe = getComputedStyle(element, "::before");
      return {
        moving: document.getAnimations().some((a) => a instanceof CSSAnimation && a.animationName === "nav-progress"),
        across: Number.parseFloat(stripe.width) === element.getBoundingClientRect().width,
        transform: stripe.transform,
      };
    });
    expect(bar).toEqual({ moving: false, across: true, transform: "none" });
    release();
    await page.locator(".nav-progress.is-active").waitFor({ state: "detached" });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("updates the document title on client navigation, and shows the loading bar until the next page's data arrives", async () => {
    const { page, problems } = await openWatchedPage(env.browser, 1280);
    await page.goto(`${env.site.origin}/portal/index.html`);
    await hydrated(page);
    await page.click(".site-footer a[href='/portal/about/member/index.html']");
    await page.waitForFunction(() => document.title === "青禾数智 - 杭州青禾数智科技有限公司创始团队");

    // The notice list's answer is held until the bar has been seen.
    const release = await followWithDataHeld(page, NOTICE_LIST, NOTICE_LIST_DATA);
    release();
    await page.locator(".nav-progress.is-active").waitFor({ state: "detached" });
    await page.waitForFunction(() => document.title === "青禾数智 - 通知公告");

    const detail = page.locator("main a[href^='/portal/message/notice/']:not([href*='list'])").first();
    const id = Number(/\/(\d+)$/.exec((await detail.getAttribute("href")) ?? "")?.[1]);
    const notice = (await (await fetch(`${env.site.origin}/api/portal/message/notice/${id}`)).json()) as { data: { title: string } };
    await detail.click();
    await page.waitForFunction((title) => document.title === title, `青禾数智 - ${notice.data.title}`);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
