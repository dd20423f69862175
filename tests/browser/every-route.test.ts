/**
 * Every route (docs/behaviour.md#routes), at a phone's width (375 px) and a desktop's (1280 px),
 * on the built site with the demo content: the page loads, shows its own content, and
 * leaves nothing on the console, no failed request and no horizontal scroll. Both forms
 * of a detail URL (`/x/{id}` and `/x?id=`) are visited, and an unknown path is followed
 * to the home page with its query kept.
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { DEMO_SITE_FILE } from "../../server/project-root.ts";
import { formatDateTime } from "../../shared/dates.ts";
import type { Founder, Job, Message, Milestone, Product, Service } from "../../shared/entities.ts";
import { describeInBrowser, openWatchedPage } from "./support/chromium.ts";
import { useDemoSiteInBrowser } from "./support/site.ts";

interface DemoSite {
  sysauthor: { fname: string };
  company: { brief: string };
  news: Message[];
  notices: Message[];
  products: Product[];
  services: Service[];
  founders: Founder[];
  milestones: (Milestone & { id: number })[];
  jobs: Job[];
}
const demo = JSON.parse(readFileSync(DEMO_SITE_FILE, "utf8")) as DemoSite;

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
const product = must(demo.products[0], "product");
const service = must(demo.services[0], "service");
const milestone = must(newestFirst(demo.milestones, (m) => m.date)[0], "milestone");
const jobsOf = (type: 1 | 2) => demo.jobs.filter((j) => j.type === type).sort((a, b) => a.id - b.id);
const socialJob = must(jobsOf(1)[0], "social job");
const campusJob = must(jobsOf(2)[0], "campus job");

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

const home = { heading: undefined, shows: ["产品中心", product.name, "新闻动态", news.title] };
const messageDetail = (m: Message) => ({ heading: m.title, shows: [formatDateTime(m.dateTime), opening(m.detail ?? "")], counts: true });
const jobDetail = (job: Job) => ({ heading: job.name, shows: [job.salary] });

const ROUTES: RouteCase[] = [
  { route: "/index.html", path: "/index.html", ...home },
  { route: "/about/index.html", path: "/about/index.html", heading: "公司简介", shows: [opening(demo.company.brief)] },
  {
    route: "/about/member/index.html",
    path: "/about/member/index.html",
    heading: `${demo.sysauthor.fname}创始团队`,
    shows: demo.founders.map((f) => f.name),
  },
  { route: "/about/milepost/index.html", path: "/about/milepost/index.html", heading: "发展历程", shows: [milestone.brief] },
  { route: "/message/news/list.html", path: "/message/news/list.html", heading: "新闻动态", shows: [news.title] },
  { route: "/message/notice/list.html", path: "/message/notice/list.html", heading: "通知公告", shows: [notice.title] },
  { route: "/message/news/{id}", path: `/message/news/${news.id}`, ...messageDetail(news) },
  { route: "/message/news?id=", path: `/message/news?id=${news.id}`, ...messageDetail(news) },
  { route: "/message/notice/{id}", path: `/message/notice/${notice.id}`, ...messageDetail(notice) },
  { route: "/message/notice?id=", path: `/message/notice?id=${notice.id}`, ...messageDetail(notice) },
  { route: "/product/{id}", path: `/product/${product.id}`, heading: product.name, shows: [opening(product.detail ?? "")] },
  { route: "/product?id=", path: `/product?id=${product.id}`, heading: product.name, shows: [opening(product.detail ?? "")] },
  { route: "/service/{id}", path: `/service/${service.id}`, heading: service.name, shows: [opening(service.detail ?? "")] },
  { route: "/service?id=", path: `/service?id=${service.id}`, heading: service.name, shows: [opening(service.detail ?? "")] },
  { route: "/job/society/index.html", path: "/job/society/index.html", heading: "社会招聘", shows: [socialJob.name] },
  { route: "/job/school/index.html", path: "/job/school/index.html", heading: "校园招聘", shows: [campusJob.name] },
  { route: "/job/society/{id}", path: `/job/society/${socialJob.id}`, ...jobDetail(socialJob) },
  { route: "/job/society?id=", path: `/job/society?id=${socialJob.id}`, ...jobDetail(socialJob) },
  { route: "/job/school/{id}", path: `/job/school/${campusJob.id}`, ...jobDetail(campusJob) },
  { route: "/job/school?id=", path: `/job/school?id=${campusJob.id}`, ...jobDetail(campusJob) },
  { route: "any other path", path: "/no/such/page.html?from=elsewhere", lands: "/index.html?from=elsewhere", ...home },
];

const CASES = ROUTES.flatMap((c) => [375, 1280].map((width) => ({ ...c, width })));

describeInBrowser("every route at 375 and 1280 px", () => {
  const env = useDemoSiteInBrowser();

  it.each(CASES)("$route at $width px loads and shows its content, cleanly", async ({ path, lands, heading, shows, counts, width }) => {
    const { page, problems, failedRequests } = await openWatchedPage(env.browser, width, 800);
    try {
      const response = await page.goto(`${env.site.origin}/portal${path}`);
      expect(response?.status()).toBe(200);
      expect(page.url()).toBe(`${env.site.origin}/portal${lands ?? path}`);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
      // Down to the footer a screen at a time, so every lazy image is asked for; then until the network is quiet.
      await page.evaluate(async () => {
        const end = document.documentElement.scrollHeight;
        for (let y = 0; y < end; y += window.innerHeight) {
          window.scrollTo(0, y);
          await new Promise(requestAnimationFrame);
        }
        window.scrollTo(0, end);
      });
      await page.waitForLoadState("networkidle");
      // The reader count is written, then read back and shown: both calls are done once it shows.
      if (counts) await page.locator(".reader-count:not(:empty)").waitFor();

      if (heading !== undefined) {
        const h1 = page.locator("main h1");
        expect(await h1.isVisible()).toBe(true);
        // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the text as rendered.
        expect(await h1.innerText()).toBe(heading);
      }
      // innerText holds only the text that is rendered, not what CSS hides.
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the text as rendered.
      const text = await page.locator("main").innerText();
      for (const expected of shows) expect(text).toContain(expected);

      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      expect(problems).toEqual([]);
      expect(failedRequests).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
