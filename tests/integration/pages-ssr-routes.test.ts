/**
 * Every page (docs/behaviour.md#routes) except home, as the built site serves it: the content is in
 * the HTML (so it works without JavaScript), the document title follows the rule, the
 * status is 200 (404 for an unknown id), and the list state comes from the query.
 * Once against the embedded demo content, once against a stand-in upstream whose
 * content and received requests the tests know exactly.
 */
import { readFileSync } from "node:fs";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SITE_FILE } from "../../server/project-root.ts";
import { formatDateTime, formatYearMonth } from "../../shared/dates.ts";
import type { Author, CompanyIntro, Founder, Job, JobAddr, JobType, Message, Milestone, Product, Service } from "../../shared/entities.ts";
import { MILESTONE_PAGE_SIZE } from "../../shared/page-data.ts";
import { STATE_ELEMENT_ID } from "../../shared/page-state.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { endpointSrc } from "../support/image-markup.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

// ---- reading the HTML the way a visitor (or a crawler) would ----

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity] as string);
const titleOf = (html: string) => decode(/<title>(.*?)<\/title>/s.exec(html)?.[1] ?? "");
/** The app's markup only (not the head, not the embedded state). */
const bodyOf = (html: string) => html.slice(html.indexOf('<div id="root">'), html.indexOf(`<script id="${STATE_ELEMENT_ID}"`));
const textOf = (html: string) =>
  decode(
    bodyOf(html)
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " "),
  );
const h1Of = (html: string) => decode((/<h1[^>]*>(.*?)<\/h1>/s.exec(bodyOf(html))?.[1] ?? "").replace(/<[^>]+>/g, ""));
/** The text of every link inside elements of a class, in document order: the items of a list. */
const linkTextsIn = (html: string, className: string) =>
  [...bodyOf(html).matchAll(new RegExp(`class="${className}"><a[^>]*>(.*?)</a>`, "g"))].map((m) => decode(m[1] ?? ""));
const hrefsIn = (html: string, className: string) =>
  [...bodyOf(html).matchAll(new RegExp(`class="${className}"><a href="([^"]*)"`, "g"))].map((m) => decode(m[1] ?? ""));
const currentPageOf = (html: string) => /aria-current="page"[^>]*>(\d+)</.exec(bodyOf(html))?.[1];

// ---- the demo content, as the embedded content API orders it ----

interface DemoSite {
  sysauthor: Author;
  company: CompanyIntro;
  news: Message[];
  notices: Message[];
  products: Product[];
  services: Service[];
  founders: Founder[];
  milestones: (Milestone & { id: number })[];
  jobs: Job[];
  jobTypes: JobType[];
  jobAddrs: JobAddr[];
}
const demo = JSON.parse(readFileSync(DEMO_SITE_FILE, "utf8")) as DemoSite;
const newestFirst = (list: Message[]) => [...list].sort((a, b) => b.dateTime.localeCompare(a.dateTime) || b.id - a.id);
const NEWS = newestFirst(demo.news);
const NOTICES = newestFirst(demo.notices);
const MILESTONES = [...demo.milestones].sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id);
const jobsOf = (type: 1 | 2, typeIds: number[] = [], addrIds: number[] = []) =>
  demo.jobs
    .filter(
      (j) => j.type === type && (!typeIds.length || typeIds.includes(j.jobTypeId)) && (!addrIds.length || addrIds.includes(j.jobAddrId)),
    )
    .sort((a, b) => a.id - b.id);
const NAME = demo.sysauthor.name;

describe("inner pages from the embedded demo content", () => {
  let site: BuiltSite;
  const get = (url: string) => request(site.origin).get(url);

  beforeAll(async () => {
    site = await startBuiltSite();
  });

  afterAll(async () => {
    await site?.close();
  });

  it("renders the company introduction", async () => {
    const res = await get("/portal/about/index.html");
    expect(res.status).toBe(200);
    expect(titleOf(res.text)).toBe(`${NAME} - 公司简介`);
    expect(h1Of(res.text)).toBe("公司简介");
    // The brief is HTML: its markup is rendered, not escaped.
    expect(bodyOf(res.text)).toContain("<h2>关于青禾数智</h2>");
    expect(textOf(res.text)).toContain("杭州青禾数智科技有限公司");
  });

  it("renders the founders under the full name plus 创始团队, each with picture, name, job and brief", async () => {
    const res = await get("/portal/about/member/index.html");
    expect(res.status).toBe(200);
    const heading = `${demo.sysauthor.fname}创始团队`;
    expect(titleOf(res.text)).toBe(`${NAME} - ${heading}`);
    expect(h1Of(res.text)).toBe(heading);
    const text = textOf(res.text);
    for (const founder of demo.founders) {
      expect(bodyOf(res.text)).toMatch(
        new RegExp(
          `<img[^>]*src="${endpointSrc(founder.picture)}"[^>]*srcSet="[^"]+"[^>]*alt="${founder.name}"[^>]*width="\\d+"[^>]*height="\\d+"`,
        ),
      );
      for (const field of [founder.name, founder.job, founder.brief]) expect(text).toContain(field);
    }
  });

  it("says Founders in English", async () => {
    const res = await get("/portal/en/about/member/index.html");
    // The company's full name in English too: the demo site has it translated.
    expect(h1Of(res.text)).toBe("Hangzhou Qinghe Intelligent Technology Co., Ltd. Founders");
  });

  it("renders the newest milestones first, as YYYY-MM, with a link to the next page for visitors without JavaScript", async () => {
    const res = await get("/portal/about/milepost/index.html");
    expect(res.status).toBe(200);
    expect(titleOf(res.text)).toBe(`${NAME} - 发展历程`);
    const dates = [...bodyOf(res.text).matchAll(/class="timeline-date"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(dates).toEqual(MILESTONES.slice(0, MILESTONE_PAGE_SIZE).map((m) => formatYearMonth(m.date)));
    expect(textOf(res.text)).toContain(MILESTONES[0]?.brief);
    expect(bodyOf(res.text)).toContain('href="/portal/about/milepost/index.html?page=2"');
  });

  it("renders the milestone page ?page= names, with a way back and no further link on the last page", async () => {
    const last = Math.ceil(MILESTONES.length / MILESTONE_PAGE_SIZE);
    const res = await get(`/portal/about/milepost/index.html?page=${last}`);
    expect(res.status).toBe(200);
    const text = textOf(res.text);
    for (const milestone of MILESTONES.slice((last - 1) * MILESTONE_PAGE_SIZE)) expect(text).toContain(milestone.brief);
    expect(text).not.toContain(MILESTONES[0]?.brief);
    expect(bodyOf(res.text)).not.toContain(`?page=${last + 1}`);
    expect(bodyOf(res.text)).toContain(`href="/portal/about/milepost/index.html${last - 1 > 1 ? `?page=${last - 1}` : ""}"`);
  });

  for (const [kind, all, heading, english] of [
    ["news", NEWS, "新闻动态", "News"],
    ["notice", NOTICES, "通知公告", "Notices"],
  ] as const) {
    it(`lists the first 20 ${kind} items newest first, with date, brief, image, total and paging`, async () => {
      const res = await get(`/portal/message/${kind}/list.html`);
      expect(res.status).toBe(200);
      expect(titleOf(res.text)).toBe(`${NAME} - ${heading}`);
      expect(h1Of(res.text)).toBe(heading);
      expect(linkTextsIn(res.text, "msg-item-title")).toEqual(all.slice(0, 20).map((m) => m.title));
      expect(hrefsIn(res.text, "msg-item-title")[0]).toBe(`/portal/message/${kind}/${all[0]?.id}`);
      const first = all[0] as Message;
      expect(textOf(res.text)).toContain(formatDateTime(first.dateTime));
      expect(textOf(res.text)).toContain(first.brief);
      expect(bodyOf(res.text)).toMatch(
        new RegExp(`<img[^>]*src="${endpointSrc(first.img)}"[^>]*width="\\d+" height="\\d+"[^>]*loading="lazy"`),
      );
      expect(textOf(res.text)).toContain(`共 ${all.length} 条`);
      expect(currentPageOf(res.text)).toBe("1");
      expect(bodyOf(res.text)).toContain(`href="/portal/message/${kind}/list.html?page=2"`);
      // The size selector and the quick jumper are a GET form back to this list.
      expect(bodyOf(res.text)).toMatch(new RegExp(`<form class="pager-form" action="/portal/message/${kind}/list.html" method="get">`));
      expect(bodyOf(res.text)).toMatch(/<select[^>]*name="size"/);
      expect(bodyOf(res.text)).toMatch(/<input[^>]*type="number"[^>]*name="page"/);
    });

    it(`shows ${kind} items 11–20 on page 2 of size 10, and keeps the size in the paging links`, async () => {
      const res = await get(`/portal/message/${kind}/list.html?page=2&size=10`);
      expect(res.status).toBe(200);
      expect(linkTextsIn(res.text, "msg-item-title")).toEqual(all.slice(10, 20).map((m) => m.title));
      expect(currentPageOf(res.text)).toBe("2");
      const body = bodyOf(res.text);
      expect(body).toContain(`href="/portal/message/${kind}/list.html?page=3&amp;size=10"`);
      expect(body).toContain(`href="/portal/message/${kind}/list.html?size=10"`);
      expect(body).toMatch(/<option value="10" selected="">/);
    });

    it(`falls back to page 1 and size 20 for bad ${kind} paging values, never failing`, async () => {
      for (const query of ["page=0&size=7", "page=-3&size=abc", "page=1e3&size=20.0", "page=x&size=", "page=99999999999"]) {
        const res = await get(`/portal/message/${kind}/list.html?${query}`);
        expect(res.status, query).toBe(200);
        expect(linkTextsIn(res.text, "msg-item-title"), query).toEqual(all.slice(0, 20).map((m) => m.title));
      }
    });

    it(`names the ${kind} list in English`, async () => {
      const res = await get(`/portal/en/message/${kind}/list.html`);
      expect(h1Of(res.text)).toBe(english);
      expect(textOf(res.text)).toContain(`${all.length} items`);
      // Links stay at English addresses.
      expect(bodyOf(res.text)).toContain(`href="/portal/en/message/${kind}/list.html?page=2"`);
    });

    it(`renders a ${kind} detail at both addresses with title, date, image and HTML detail`, async () => {
      const item = all[3] as Message;
      for (const url of [`/portal/message/${kind}/${item.id}`, `/portal/message/${kind}?id=${item.id}`]) {
        const res = await get(url);
        expect(res.status, url).toBe(200);
        expect(titleOf(res.text)).toBe(`${NAME} - ${item.title}`);
        expect(h1Of(res.text)).toBe(item.title);
        expect(textOf(res.text)).toContain(formatDateTime(item.dateTime));
        expect(bodyOf(res.text)).toMatch(new RegExp(`src="${endpointSrc(item.img)}"`));
        expect(bodyOf(res.text)).toMatch(/class="rich-html detail-body"><p>/);
        // The reader count is the browser's: the server shows no number.
        expect(bodyOf(res.text)).toMatch(/<span class="reader-count"[^>]*><\/span>/);
      }
    });

    it(`answers 404 with the not-found state for an unknown ${kind} id`, async () => {
      for (const url of [`/portal/message/${kind}/999999`, `/portal/message/${kind}?id=999999`, `/portal/message/${kind}?id=x`]) {
        const res = await get(url);
        expect(res.status, url).toBe(404);
        expect(h1Of(res.text)).toBe("没有找到这个页面的内容");
      }
    });
  }

  for (const [kind, list] of [
    ["product", demo.products],
    ["service", demo.services],
  ] as const) {
    it(`renders a ${kind} at both addresses with its name, HTML detail${kind === "product" ? " and image" : ""}`, async () => {
      const item = list[2] as Product;
      for (const url of [`/portal/${kind}/${item.id}`, `/portal/${kind}?id=${item.id}`]) {
        const res = await get(url);
        expect(res.status, url).toBe(200);
        expect(titleOf(res.text)).toBe(`${NAME} - ${item.name}`);
        expect(h1Of(res.text)).toBe(item.name);
        expect(bodyOf(res.text)).toMatch(/class="rich-html detail-body"><(p|h2)/);
        // The product's picture shows once: the demo's details open with it, so it is not repeated above them.
        if (kind === "product") expect(bodyOf(res.text).match(new RegExp(` src="${endpointSrc(item.propImg)}"`, "g"))).toHaveLength(1);
      }
    });

    it(`answers 404 for an unknown ${kind}`, async () => {
      for (const url of [`/portal/${kind}/999999`, `/portal/${kind}?id=999999`, `/portal/${kind}`]) {
        const res = await get(url);
        expect(res.status, url).toBe(404);
        // The title says what the visitor got, not the page type's name (产品详情).
        expect(titleOf(res.text)).toBe(`${NAME} - 页面未找到`);
      }
    });
  }

  for (const [kind, type, heading] of [
    ["society", 1, "社会招聘"],
    ["school", 2, "校园招聘"],
  ] as const) {
    it(`lists ${kind} jobs with salary, type and address names, and links to their details`, async () => {
      const res = await get(`/portal/job/${kind}/index.html`);
      expect(res.status).toBe(200);
      expect(titleOf(res.text)).toBe(`${NAME} - ${heading}`);
      expect(h1Of(res.text)).toBe(heading);
      const jobs = jobsOf(type);
      expect(linkTextsIn(res.text, "job-item-name")).toEqual(jobs.slice(0, 20).map((j) => j.name));
      expect(hrefsIn(res.text, "job-item-name")[0]).toBe(`/portal/job/${kind}/${jobs[0]?.id}`);
      const first = jobs[0] as Job;
      const row = bodyOf(res.text).split('class="job-item"')[1] ?? "";
      expect(decode(row)).toContain(first.salary);
      expect(row).toContain(`<dd>${demo.jobTypes.find((t) => t.id === first.jobTypeId)?.name}</dd>`);
      expect(row).toContain(`<dd>${demo.jobAddrs.find((a) => a.id === first.jobAddrId)?.name}</dd>`);
      expect(textOf(res.text)).toContain(`共 ${jobs.length} 条`);
      // The filter form is in the HTML, working without JavaScript.
      expect(bodyOf(res.text)).toContain(`<form class="job-filter-form" action="/portal/job/${kind}/index.html" method="get">`);
      for (const t of demo.jobTypes) expect(bodyOf(res.text)).toContain(`name="jobTypeIds" value="${t.id}"`);
      for (const a of demo.jobAddrs) expect(bodyOf(res.text)).toContain(`name="jobAddrIds" value="${a.id}"`);
    });

    it(`filters ${kind} jobs by type and address ids from the query, comma-joined or repeated, keeping them in paging links`, async () => {
      const expected = jobsOf(type, [1, 2], [1, 2]);
      for (const query of [
        "jobTypeIds=1,2&jobAddrIds=2,1",
        "jobTypeIds=1&jobTypeIds=2&jobAddrIds=1&jobAddrIds=2",
        "jobTypeIds=2,1,,x&jobAddrIds=1,2,0",
      ]) {
        const res = await get(`/portal/job/${kind}/index.html?${query}`);
        expect(res.status, query).toBe(200);
        expect(linkTextsIn(res.text, "job-item-name"), query).toEqual(expected.slice(0, 20).map((j) => j.name));
        expect(bodyOf(res.text)).toMatch(/name="jobTypeIds" checked="" value="1"/);
        expect(bodyOf(res.text)).toMatch(/name="jobAddrIds" checked="" value="2"/);
        expect(bodyOf(res.text)).not.toMatch(/name="jobTypeIds" checked="" value="3"/);
      }
      const paged = await get(`/portal/job/${kind}/index.html?jobTypeIds=1&page=2&size=1`);
      const oneType = jobsOf(type, [1]);
      expect(linkTextsIn(paged.text, "job-item-name")).toEqual([oneType[1]?.name]);
      expect(bodyOf(paged.text)).toContain(`href="/portal/job/${kind}/index.html?jobTypeIds=1&amp;page=3&amp;size=1"`);
    });

    it(`drops bad ${kind} filter values and falls back to the defaults`, async () => {
      const all = await get(`/portal/job/${kind}/index.html?jobTypeIds=,,x&jobAddrIds=-1&page=0&size=7`);
      expect(all.status).toBe(200);
      expect(linkTextsIn(all.text, "job-item-name")).toEqual(
        jobsOf(type)
          .slice(0, 20)
          .map((j) => j.name),
      );
      const one = await get(`/portal/job/${kind}/index.html?jobTypeIds=1,,x`);
      expect(linkTextsIn(one.text, "job-item-name")).toEqual(
        jobsOf(type, [1])
          .slice(0, 20)
          .map((j) => j.name),
      );
    });

    it(`says when no ${kind} job matches the filter`, async () => {
      const res = await get(`/portal/job/${kind}/index.html?jobTypeIds=999`);
      expect(res.status).toBe(200);
      expect(textOf(res.text)).toContain("没有符合条件的职位");
      expect(textOf(res.text)).toContain("共 0 条");
    });

    it(`renders a ${kind} job at both addresses: name, salary, names, and the three HTML texts`, async () => {
      const job = jobsOf(type)[1] as Job;
      for (const url of [`/portal/job/${kind}/${job.id}`, `/portal/job/${kind}?id=${job.id}`]) {
        const res = await get(url);
        expect(res.status, url).toBe(200);
        expect(titleOf(res.text)).toBe(`${NAME} - ${job.name}`);
        expect(h1Of(res.text)).toBe(job.name);
        const body = bodyOf(res.text);
        expect(decode(body)).toContain(job.salary);
        expect(body).toContain(`<dd>${demo.jobTypes.find((t) => t.id === job.jobTypeId)?.name}</dd>`);
        expect(body).toContain(`<dd>${demo.jobAddrs.find((a) => a.id === job.jobAddrId)?.name}</dd>`);
        for (const section of ["职位描述", "任职要求", "应聘方式"]) expect(body).toContain(`<h2>${section}</h2>`);
        expect(body.match(/class="rich-html detail-body">/g)?.length).toBe(3);
        expect(body).toContain('class="rich-html detail-body"><ul><li>');
      }
    });

    it(`answers 404 for an unknown ${kind} job`, async () => {
      for (const url of [`/portal/job/${kind}/999999`, `/portal/job/${kind}?id=999999`]) {
        const res = await get(url);
        expect(res.status, url).toBe(404);
      }
    });
  }
});

describe("inner pages from a stand-in upstream", () => {
  let upstream: StandInUpstream;
  let site: BuiltSite;

  const message = (id: number, extra: Partial<Message> = {}): Message => ({
    id,
    title: `消息 ${id} <b>&</b>`,
    brief: `摘要 ${id}`,
    img: "",
    dateTime: `2024010${id % 9}120000`,
    ...extra,
  });
  const paged = <T>(items: T[], totalCount: number, size: number) => ({
    pageDataList: items,
    totalCount,
    totalPageCount: Math.ceil(totalCount / size),
  });

  beforeAll(async () => {
    upstream = await startStandInUpstream({
      "/api/portal/sys/syscfg": { themePortal: "1,1" },
      "/api/portal/sys/sysauthor": { name: "样例", fname: "样例股份有限公司" },
      "/api/portal/sys/menu/list": [],
      "/api/portal/plan/company": { brief: "<p>公司<em>简介</em></p>" },
      "/api/portal/plan/member/joblevel/1/list": [{ picture: "/f.png", name: "王一", job: "CEO", brief: "<i>纯文本</i>" }],
      "/api/portal/message/news/list": (url: URL) => {
        const index = Number(url.searchParams.get("pageIndex"));
        const size = Number(url.searchParams.get("pageMaxCount"));
        const ids = Array.from({ length: 45 }, (_, i) => 45 - i).slice(index * size, index * size + size);
        return {
          body: {
            code: 0,
            msg: "ok",
            data: paged(
              ids.map((id) => message(id)),
              45,
              size,
            ),
          },
        };
      },
      "/api/portal/message/notice/list": null,
      "/api/portal/message/news/5": message(5, { dateTime: "bad", img: "/n5.png", detail: "<p>正文<strong>五</strong></p>" }),
      "/api/portal/message/notice/6": message(6, { dateTime: "20240102", detail: "<p>公告</p>" }),
      "/api/portal/product/product/3": { id: 3, name: "产品三", propImg: "/p3.png", detail: "<p>产品详情</p>", type: 1 },
      "/api/portal/service/service/4": { id: 4, name: "服务四", detail: "<p>服务详情</p>", type: 1 },
      "/api/portal/job/jobtype/list": [
        { id: 1, name: "研发" },
        { id: 2, name: "市场" },
      ],
      "/api/portal/job/jobaddr/list": [{ id: 7, name: "杭州" }],
      "/api/portal/job/job/list": (url: URL) => ({
        body: {
          code: 0,
          msg: "ok",
          data: paged(
            [
              {
                id: 9,
                name: `职位 ${url.searchParams.toString()}`,
                jobTypeId: 2,
                jobAddrId: 7,
                salary: "10K",
                description: "",
                requirement: "",
                callHr: "",
                type: 1,
              },
            ],
            1,
            20,
          ),
        },
      }),
      "/api/portal/job/job/9": {
        id: 9,
        name: "职位九",
        jobTypeId: 2,
        jobAddrId: 8,
        salary: "面议",
        description: "<p>描述</p>",
        requirement: "",
        callHr: "<p>邮件</p>",
        type: 2,
      },
      "/api/portal/plan/milepost/list": (url: URL) => ({
        body: {
          code: 0,
          msg: "ok",
          data: paged(
            [
              { date: "202403", brief: `里程碑 ${url.searchParams.get("pageIndex")}` },
              { date: "2024", brief: "无日期" },
            ],
            30,
            10,
          ),
        },
      }),
    });
    site = await startBuiltSite({ API_BASE_URL: upstream.url });
  });

  afterAll(async () => {
    await site?.close();
    await upstream?.close();
  });

  const get = (url: string) => request(site.origin).get(url);
  const upstreamQueries = (p: string) =>
    upstream.requests.filter((r) => r.url.split("?")[0] === p).map((r) => new URLSearchParams(r.url.split("?")[1] ?? ""));

  it("asks the upstream for the 0-based page and the size the URL names", async () => {
    const res = await get("/portal/message/news/list.html?page=3&size=10");
    expect(res.status).toBe(200);
    const query = upstreamQueries("/api/portal/message/news/list").at(-1);
    expect(query?.get("pageIndex")).toBe("2");
    expect(query?.get("pageMaxCount")).toBe("10");
    expect(linkTextsIn(res.text, "msg-item-title")).toEqual(Array.from({ length: 10 }, (_, i) => `消息 ${25 - i} <b>&</b>`));
    // Page numbers with gaps: 1 … 2 3 [3] 4 5 has none at 5 pages; the total is the upstream's.
    expect(textOf(res.text)).toContain("共 45 条");
  });

  it("shows page numbers with an ellipsis when there are many pages", async () => {
    const res = await get("/portal/message/news/list.html?page=20&size=1");
    const pages = [...bodyOf(res.text).matchAll(/class="pager-page"[^>]*>(\d+)</g)].map((m) => m[1]);
    expect(pages).toEqual(["1", "18", "19", "20", "21", "22", "45"]);
    expect(bodyOf(res.text).match(/class="pager-gap"/g)?.length).toBe(2);
    expect(currentPageOf(res.text)).toBe("20");
  });

  it("shows the empty state when a list has no items", async () => {
    const res = await get("/portal/message/notice/list.html");
    expect(res.status).toBe(200);
    expect(textOf(res.text)).toContain("暂无内容");
    expect(textOf(res.text)).toContain("共 0 条");
  });

  it("renders plain text as text and HTML fields as markup", async () => {
    const list = await get("/portal/message/news/list.html");
    expect(bodyOf(list.text)).toContain("消息 45 &lt;b&gt;&amp;&lt;/b&gt;");
    const founders = await get("/portal/about/member/index.html");
    expect(h1Of(founders.text)).toBe("样例股份有限公司创始团队");
    expect(bodyOf(founders.text)).toContain("&lt;i&gt;纯文本&lt;/i&gt;");
    const about = await get("/portal/about/index.html");
    expect(bodyOf(about.text)).toContain("<p>公司<em>简介</em></p>");
  });

  it("shows an empty date for a date that is not 8 or 14 digits, and YYYY-MM-DD for 8", async () => {
    const news = await get("/portal/message/news/5");
    expect(news.status).toBe(200);
    expect(bodyOf(news.text)).not.toContain("<time");
    expect(bodyOf(news.text)).toMatch(new RegExp(`src="${endpointSrc("/n5.png")}"`));
    expect(bodyOf(news.text)).toContain("<p>正文<strong>五</strong></p>");
    const notice = await get("/portal/message/notice?id=6");
    expect(textOf(notice.text)).toContain("2024-01-02");
    expect(titleOf(notice.text)).toBe("样例 - 消息 6 <b>&</b>");
  });

  it("never counts a reader on the server", async () => {
    await get("/portal/message/news/5");
    await get("/portal/message/notice/6");
    expect(upstream.requests.filter((r) => r.url.startsWith("/api/portal/reader/"))).toEqual([]);
  });

  it("renders product and service details, and 404 for ids the upstream does not know", async () => {
    const product = await get("/portal/product?id=3");
    expect(product.status).toBe(200);
    expect(titleOf(product.text)).toBe("样例 - 产品三");
    expect(bodyOf(product.text)).toMatch(
      new RegExp(`<img src="${endpointSrc("/p3.png")}"[^>]* alt="产品三"[^>]* class="detail-img detail-img-product"`),
    );
    const service = await get("/portal/service/4");
    expect(service.status).toBe(200);
    expect(bodyOf(service.text)).toContain("<p>服务详情</p>");
    expect((await get("/portal/service/3")).status).toBe(404);
    expect((await get("/portal/product/4")).status).toBe(404);
  });

  it("sends the job filter to the upstream normalised, and resolves names", async () => {
    const res = await get("/portal/job/society/index.html?jobTypeIds=2,1,,x&jobAddrIds=7&page=0&size=7");
    expect(res.status).toBe(200);
    const query = upstreamQueries("/api/portal/job/job/list").at(-1);
    expect(Object.fromEntries(query ?? [])).toEqual({ jobAddrIds: "7", jobTypeIds: "1,2", pageIndex: "0", pageMaxCount: "20", type: "1" });
    const row = bodyOf(res.text).split('class="job-item"')[1] ?? "";
    expect(row).toContain("<dd>市场</dd>");
    expect(row).toContain("<dd>杭州</dd>");
    const school = await get("/portal/job/school/index.html");
    expect(upstreamQueries("/api/portal/job/job/list").at(-1)?.get("type")).toBe("2");
    expect(school.status).toBe(200);
  });

  it("renders a job with an unknown address as a dash and leaves out an empty section", async () => {
    const res = await get("/portal/job/school/9");
    expect(res.status).toBe(200);
    const body = bodyOf(res.text);
    expect(body).toContain("<dd>市场</dd>");
    expect(body).toContain("<dd>—</dd>");
    expect(body).toContain("<h2>职位描述</h2>");
    expect(body).not.toContain("<h2>任职要求</h2>");
    expect(body).toContain("<h2>应聘方式</h2>");
    expect((await get("/portal/job/society/10")).status).toBe(404);
  });

  it("renders the milestone page the URL names and an empty date for a bad yyyymm", async () => {
    const res = await get("/portal/about/milepost/index.html?page=2");
    expect(res.status).toBe(200);
    expect(upstreamQueries("/api/portal/plan/milepost/list").at(-1)?.get("pageIndex")).toBe("1");
    expect(textOf(res.text)).toContain("里程碑 1");
    expect(bodyOf(res.text)).toMatch(/class="timeline-date"[^>]*>2024-03</);
    expect(bodyOf(res.text)).toMatch(/class="timeline-date"><\/time>/);
    expect(bodyOf(res.text)).toContain('href="/portal/about/milepost/index.html?page=3"');
    expect(bodyOf(res.text)).toContain('href="/portal/about/milepost/index.html"');
  });

  it("answers 502 with the error state and a retry on every inner page when the upstream fails", async () => {
    upstream.behaviour = "error";
    const fresh = await startBuiltSite({ API_BASE_URL: upstream.url });
    try {
      for (const url of [
        "/portal/about/index.html",
        "/portal/about/member/index.html",
        "/portal/about/milepost/index.html",
        "/portal/message/news/list.html",
        "/portal/job/society/index.html",
      ]) {
        const res = await request(fresh.origin).get(url);
        expect(res.status, url).toBe(502);
        expect(bodyOf(res.text), url).toMatch(/role="alert"[\s\S]*<button type="button" class="button">重试<\/button>/);
      }
    } finally {
      upstream.behaviour = "ok";
      await fresh.close();
    }
  });
});
