/**
 * Every page of the route table (docs/behaviour.md#routes), at a phone's width (375 px) and a
 * desktop's (1280 px), on the built site with the demo content: the page loads, shows its own content, and
 * leaves nothing on the console, no failed request and no horizontal scroll. Both forms
 * of a detail URL (`/x/{id}` and `/x?id=`) are visited, and an unknown path is followed
 * to the home page with its query kept.
 */
import { expect, it } from "vitest";
import { readDemoSite, samplePages, siteItems } from "../../harness/page-samples.ts";
import { formatDateTime } from "../../shared/dates.ts";
import type { Job, Message } from "../../shared/entities.ts";
import { BASE_PATH, type PageId } from "../../shared/routes.ts";
import { describeInBrowser, openWatchedPage } from "../support/browser/chromium.ts";
import { scrollThroughPage } from "../support/browser/frames.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { useDemoSiteInBrowser } from "../support/browser/site.ts";
import { withinNamedSteps } from "../support/named-steps.ts";

const demo = readDemoSite();

const newestFirst = <T extends { id: number }>(items: T[], date: (item: T) => string) =>
  [...items].sort((a, b) => date(b).localeCompare(date(a)) || b.id - a.id);
const must = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`the demo site has no ${what}`);
  return value;
};
/** The start of the first paragraph of an HTML field, as a visitor reads it. */
const opening = (html: string) =>
  must([...html.matchAll(/<p>(.*?)<\/p>/g)].map((m) => (m[1] ?? "").replace(/<[^>]+>/g, "").trim()).find(Boolean), "paragraph").slice(
    0,
    16,
  );

const news = must(newestFirst(demo.news, (m) => m.dateTime)[0], "news");
const notice = must(newestFirst(demo.notices, (m) => m.dateTime)[0], "notice");
const milestone = must(newestFirst(demo.milestones, (m) => m.date)[0], "milestone");
const jobsOf = (type: 1 | 2) => demo.jobs.filter((j) => j.type === type).sort((a, b) => a.id - b.id);
const itemOf = <T extends { id: number }>(items: T[], id: number | undefined): T =>
  must(
    items.find((item) => item.id === id),
    `item ${id}`,
  );

interface RouteCase {
  route: string;
  /** What the visitor asks for, under /portal. */
  path: string;
  /** Where the browser ends up, when that is somewhere else. */
  lands?: string;
  /** The visible main heading; the home page's is for screen readers only. */
  heading?: string;
  /** Text the page shows in its main content. */
  shows: string[];
  /** A news or notice detail, which counts its reader once shown. */
  counts?: boolean;
}

type Expected = Pick<RouteCase, "heading" | "shows" | "counts">;

const home = { heading: undefined, shows: ["产品中心", must(demo.products[0], "product").name, "新闻动态", news.title] };
const messageDetail = (m: Message): Expected => ({
  heading: m.title,
  shows: [formatDateTime(m.dateTime), opening(m.detail ?? "")],
  counts: true,
});
const offeringDetail = (item: { name: string; detail?: string | null }): Expected => ({
  heading: item.name,
  shows: [opening(item.detail ?? "")],
});
const jobDetail = (job: Job): Expected => ({ heading: job.name, shows: [job.salary] });

/** What each page shows with the demo content, from the item its URL names; a page left out here is still visited, and must load cleanly. */
const EXPECTED: Partial<Record<PageId, (itemId: number | undefined) => Expected>> = {
  home: () => home,
  about: () => ({ heading: "公司简介", shows: [opening(demo.company.brief)] }),
  founders: () => ({ heading: `${demo.sysauthor.fname}创始团队`, shows: demo.founders.map((f) => f.name) }),
  milestones: () => ({ heading: "发展历程", shows: [milestone.brief] }),
  newsList: () => ({ heading: "新闻动态", shows: [news.title] }),
  noticeList: () => ({ heading: "通知公告", shows: [notice.title] }),
  newsDetail: (id) => messageDetail(itemOf(demo.news, id)),
  noticeDetail: (id) => messageDetail(itemOf(demo.notices, id)),
  productDetail: (id) => offeringDetail(itemOf(demo.products, id)),
  serviceDetail: (id) => offeringDetail(itemOf(demo.services, id)),
  jobSocietyList: () => ({ heading: "社会招聘", shows: [must(jobsOf(1)[0], "social job").name] }),
  jobSchoolList: () => ({ heading: "校园招聘", shows: [must(jobsOf(2)[0], "campus job").name] }),
  jobSocietyDetail: (id) => jobDetail(itemOf(demo.jobs, id)),
  jobSchoolDetail: (id) => jobDetail(itemOf(demo.jobs, id)),
};

/** Every page of the route table, a detail page in both of its forms, and any other path. */
const ROUTES: RouteCase[] = [
  ...samplePages(siteItems(demo)).flatMap(({ route, path, itemId }): RouteCase[] => {
    const expected = EXPECTED[route.id as PageId]?.(itemId) ?? { shows: [] };
    const own = path.slice(BASE_PATH.length);
    if (itemId === undefined) return [{ route: route.path, path: own, ...expected }];
    return [
      { route: `${route.path}/{id}`, path: own, ...expected },
      { route: `${route.path}?id=`, path: `${route.path}?id=${itemId}`, ...expected },
    ];
  }),
  { route: "any other path", path: "/no/such/page.html?from=elsewhere", lands: "/index.html?from=elsewhere", ...home },
];

const CASES = ROUTES.flatMap((c) => [375, 1280].map((width) => ({ ...c, width })));

describeInBrowser("every route at 375 and 1280 px", () => {
  const env = useDemoSiteInBrowser();

  it.each(CASES)("$route at $width px loads and shows its content, cleanly", async ({ path, lands, heading, shows, counts, width }) => {
    const { page, problems, failedRequests } = await openWatchedPage(env.browser, width, 800);
    // A step takes 2-3 s, and seconds more on a loaded machine: one that hangs fails naming itself, inside the test's own limit.
    page.setDefaultTimeout(30_000);
    try {
      await withinNamedSteps(50_000, async (step) => {
        step("loading the page");
        const response = await page.goto(`${env.site.origin}/portal${path}`);
        expect(response?.status()).toBe(200);
        expect(page.url()).toBe(`${env.site.origin}/portal${lands ?? path}`);
        step("waiting for hydration");
        await hydrated(page);
        step("scrolling to the footer");
        await scrollThroughPage(page);
        step("waiting for the network to be quiet");
        await page.waitForLoadState("networkidle");
        // The reader count is written, then read back and shown: both calls are done once it shows.
        step("waiting for the reader count");
        if (counts) await page.locator(".reader-count:not(:empty)").waitFor();

        step("reading the heading");
        if (heading !== undefined) {
          const h1 = page.locator("main h1");
          expect(await h1.isVisible()).toBe(true);
          // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the text as rendered.
          expect(await h1.innerText()).toBe(heading);
        }
        // innerText holds only the text that is rendered, not what CSS hides. Sections a phone lays out only
        // near the screen (content-visibility) are rendered here as they are when the visitor scrolls to them.
        step("reading the main content");
        await page.evaluate(() => {
          for (const element of document.querySelectorAll<HTMLElement>("main *, footer"))
            if (getComputedStyle(element).contentVisibility === "auto") element.style.contentVisibility = "visible";
        });
        // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the text as rendered.
        const text = await page.locator("main").innerText();
        for (const expected of shows) expect(text).toContain(expected);

        step("measuring the width");
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
        expect(problems).toEqual([]);
        expect(failedRequests).toEqual([]);
      });
    } finally {
      await page.context().close();
    }
  });
});
