/**
 * The home page's custom layout in Chromium against a stand-in upstream: its markup, the
 * `useEval|` script run once or not at all, javascript: urls shown as plain content, and a
 * single row of partners.
 */
import { readFile } from "node:fs/promises";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SITE_FILE } from "../../server/project-root.ts";
import { homeScriptSource } from "../../shared/home-script.ts";
import { describeInBrowser, launchChromium, openWatchedPage, type WatchedPage } from "../support/browser/chromium.ts";
import { currentSlide, HOME, partnerWallDecided, SCROLLING, waitForHydration } from "../support/browser/home-page.ts";
import { startBuiltSite } from "../support/built-site.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

interface StandInSite {
  origin: string;
  upstream: StandInUpstream;
  close(): Promise<void>;
}

/** The built site over a stand-in upstream, for content the demo does not have. */
async function startStandInSite(routes: Record<string, unknown>, env: Record<string, string> = {}): Promise<StandInSite> {
  const upstream = await startStandInUpstream(routes);
  const site = await startBuiltSite({ API_BASE_URL: upstream.url, ...env });
  return {
    origin: site.origin,
    upstream,
    async close() {
      await site.close();
      await upstream.close();
    },
  };
}

const MARKUP = '<section class="custom-block"><h2>定制首页内容</h2><p>这是运营配置的首页内容。</p></section>';
const SCRIPT_BODY = [
  "container.dataset.ran = String(Number(container.dataset.ran || 0) + 1);",
  'container.dataset.sections = String(container.querySelectorAll("section").length);',
].join("\n");

describeInBrowser("the home page's custom layout in Chromium (stand-in upstream)", () => {
  let browser: Browser;
  let demo: {
    slides: { title: string; url: string; img: string }[];
    products: unknown[];
    services: unknown[];
    news: unknown[];
    notices: unknown[];
    partners: unknown[];
  };

  beforeAll(async () => {
    demo = JSON.parse(await readFile(DEMO_SITE_FILE, "utf8"));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Demo content (its images are served under /portal/media), with the given layout, home html and partners. */
  function routes(themePortal: string, html: string, partners = demo.partners): Record<string, unknown> {
    const paged = (items: unknown[]) => ({ pageDataList: items.slice(0, 4), totalCount: items.length, totalPageCount: 1 });
    return {
      "/api/portal/sys/syscfg": { themePortal, metaKeywords: "", metaDescription: "", copyright: "©", record: "", edi: "" },
      "/api/portal/sys/sysauthor": { name: "测试公司", fname: "测试科技有限公司", logo: "", phone: "", email: "" },
      "/api/portal/sys/menu/list": [],
      "/api/portal/message/indexslide/list": demo.slides,
      "/api/portal/product/product/list": demo.products,
      "/api/portal/service/service/list": demo.services,
      "/api/portal/message/news/list": paged(demo.news),
      "/api/portal/message/notice/list": paged(demo.notices),
      "/api/portal/crm/partner/list": partners,
      "/api/portal/sys/indexhtml": { html },
    };
  }

  async function open(site: StandInSite, width = 1280): Promise<WatchedPage> {
    const watched = await openWatchedPage(browser, width, 800);
    await watched.page.goto(`${site.origin}${HOME}`);
    await waitForHydration(watched.page);
    return watched;
  }

  it("shows the custom markup right after the content container", async () => {
    const site = await startStandInSite(routes("1,2", MARKUP));
    try {
      const { page, problems, apiRequests } = await open(site);
      expect(await page.isVisible("#home-custom h2")).toBe(true);
      expect(await page.textContent("#home-custom")).toContain("这是运营配置的首页内容。");
      expect(await page.evaluate(() => document.getElementById("home-content")?.nextElementSibling?.id)).toBe("home-custom");
      expect(problems).toEqual([]);
      expect(apiRequests).toEqual([]);
      await page.context().close();
    } finally {
      await site.close();
    }
  });

  it("runs a useEval| script exactly once, after hydration, with the content container", async () => {
    const site = await startStandInSite(routes("1,2", `useEval|${SCRIPT_BODY}`));
    try {
      const { page, problems } = await open(site);
      await page.waitForSelector("#home-content[data-ran]", { state: "attached" });
      // Re-renders (a slide change, the pause button) do not run it again.
      await page.click(".carousel-next");
      await expect.poll(() => currentSlide(page), SCROLLING).toBe(2);
      await page.click(".carousel-toggle");
      const state = await page.evaluate((source) => {
        const container = document.getElementById("home-content");
        return {
          ran: container?.dataset.ran,
          sections: Number(container?.dataset.sections),
          scripts: [...document.body.querySelectorAll("script")].filter((s) => s.textContent === source).length,
          custom: document.getElementById("home-custom")?.innerHTML,
        };
      }, homeScriptSource(SCRIPT_BODY));
      expect(state).toEqual({ ran: "1", sections: 0, scripts: 1, custom: "" });
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await site.close();
    }
  });

  it("does not run the script when the operator turned it off", async () => {
    const site = await startStandInSite(routes("1,2", `useEval|${SCRIPT_BODY}`), { PORTAL_HOME_SCRIPT: "off" });
    try {
      const { page, problems } = await open(site);
      // The carousel's readiness is set by an effect of the same commit as the script's.
      expect(await page.evaluate(() => document.getElementById("home-content")?.dataset.ran)).toBeUndefined();
      expect(await page.evaluate(() => document.body.querySelectorAll("script:not([src]):not([type])").length)).toBe(0);
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await site.close();
    }
  });

  it("shows a slide and a partner whose url is javascript: as plain content with no link, and hydrates them without a mismatch", async () => {
    const [firstPartner, ...otherPartners] = demo.partners as { logo: string; url: string }[];
    const hostile = routes("1,1", MARKUP, [{ ...firstPartner, url: "javascript:alert(1)" }, ...otherPartners.slice(0, 4)]);
    const [firstSlide, ...otherSlides] = demo.slides;
    hostile["/api/portal/message/indexslide/list"] = [{ ...firstSlide, url: " javascript:alert(1)" }, ...otherSlides];
    const site = await startStandInSite(hostile);
    try {
      const { page, problems } = await open(site);
      await partnerWallDecided(page);
      const links = (selector: string) =>
        page.$$eval(selector, (items) => items.map((item) => [...item.querySelectorAll("a")].map((a) => a.protocol)));
      const slides = await links(".carousel-slide");
      expect(slides[0]).toEqual([]);
      expect(slides.slice(1).every((protocols) => protocols.length === 1 && /^https?:$/.test(protocols[0] ?? ""))).toBe(true);
      expect((await links(".partner:not([aria-hidden])")).map((protocols) => protocols.length)).toEqual([0, 1, 1, 1, 1]);
      // The item itself still shows: the slide's picture and the partner's logo.
      expect(await page.locator(".carousel-slide").first().locator("img").isVisible()).toBe(true);
      expect(await page.locator(".partner").first().locator("img").count()).toBe(1);
      // A click on the unlinked slide goes nowhere and runs nothing.
      await page
        .locator(".carousel-slide")
        .first()
        .click({ position: { x: 300, y: 100 } });
      expect(page.url()).toBe(`${site.origin}${HOME}`);
      expect(await page.locator('a[href*="javascript:" i]').count()).toBe(0);
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await site.close();
    }
  });

  describe("a single row of 5 partners", () => {
    it("stays still where 5 fit (1280 px) and moves where they do not (375 px)", async () => {
      const site = await startStandInSite(routes("1,1", MARKUP, demo.partners.slice(0, 5)));
      try {
        for (const [width, moving] of [
          [1280, false],
          [375, true],
        ] as const) {
          const { page, problems } = await open(site, width);
          await partnerWallDecided(page);
          expect(await page.locator(".partner-row").count()).toBe(1);
          expect(await page.locator(".partner-row.is-moving").count()).toBe(moving ? 1 : 0);
          expect(await page.locator(".partner").count()).toBe(moving ? 10 : 5);
          expect(await page.isVisible("#home-custom")).toBe(false);
          expect(problems).toEqual([]);
          await page.context().close();
        }
      } finally {
        await site.close();
      }
    });
  });
});
