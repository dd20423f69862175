/**
 * Every page (docs/behaviour.md#routes) except home against a stand-in upstream whose content
 * and received requests the tests know exactly: the paging and filters it is asked for, text and
 * HTML fields, dates, details, and the error state when it fails.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "../../shared/entities.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { endpointSrc } from "../support/image-markup.ts";
import { bodyOf, currentPageOf, h1Of, linkTextsIn, textOf, titleOf } from "../support/page-html.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

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
