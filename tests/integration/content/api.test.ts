/**
 * Every call of docs/behaviour.md#calls through the embedded content API over HTTP, on
 * SQLite and PostgreSQL: payloads, entity shapes, paging, job filters, and the
 * 400 / 404 / 405 / 413 answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedContentApi, startContentApi } from "../../../server/content/api.ts";
import { CALL_HANDLERS } from "../../../server/content/api-handlers.ts";
import { type ContentDb, openContentDb } from "../../../server/content/db.ts";
import type { SiteFile } from "../../../server/content/site-file.ts";
import { importSite } from "../../../server/content/site-io.ts";
import { API_CALLS } from "../../../shared/api-calls.ts";
import type {
  Founder,
  Job,
  JobAddr,
  JobType,
  MenuItem,
  Message,
  Milestone,
  Partner,
  Product,
  Service,
  Slide,
} from "../../../shared/entities.ts";
import type { Paged } from "../../../shared/envelope.ts";
import { getJson, putReader } from "../../support/content-http.ts";
import { describeEachDatabase } from "../../support/databases.ts";
import { buildFixtureSite, FIXTURE, MAX_ID } from "../../support/fixture-site.ts";

type FieldKind = "number" | "string";
/** Every field of an entity with its JSON type: `satisfies` keeps these lists in step with shared/entities.ts. */
const SHAPES = {
  menu: { id: "number", pid: "number", title: "string", url: "string", urlType: "number", delflag: "number" } satisfies Record<
    keyof MenuItem,
    FieldKind
  >,
  slide: { id: "number", title: "string", url: "string", img: "string" } satisfies Record<keyof Slide | "id", FieldKind>,
  product: { id: "number", name: "string", propImg: "string", detail: "string", type: "number" } satisfies Record<keyof Product, FieldKind>,
  service: { id: "number", name: "string", detail: "string", type: "number" } satisfies Record<keyof Service, FieldKind>,
  messageItem: { id: "number", title: "string", brief: "string", img: "string", dateTime: "string" } satisfies Record<
    Exclude<keyof Message, "detail">,
    FieldKind
  >,
  message: { id: "number", title: "string", brief: "string", img: "string", dateTime: "string", detail: "string" } satisfies Record<
    keyof Message,
    FieldKind
  >,
  partner: { id: "number", logo: "string", url: "string" } satisfies Record<keyof Partner | "id", FieldKind>,
  founder: { id: "number", picture: "string", name: "string", job: "string", brief: "string" } satisfies Record<
    keyof Founder | "id",
    FieldKind
  >,
  milestone: { id: "number", date: "string", brief: "string" } satisfies Record<keyof Milestone | "id", FieldKind>,
  named: { id: "number", name: "string" } satisfies Record<keyof JobType & keyof JobAddr, FieldKind>,
  job: {
    id: "number",
    name: "string",
    jobAddrId: "number",
    jobTypeId: "number",
    salary: "string",
    description: "string",
    requirement: "string",
    callHr: "string",
    type: "number",
  } satisfies Record<keyof Job, FieldKind>,
} as const;

function expectShape(items: unknown[], shape: Record<string, FieldKind>) {
  for (const item of items) {
    expect(Object.keys(item as object).sort()).toEqual(Object.keys(shape).sort());
    for (const [field, kind] of Object.entries(shape)) expect(typeof (item as Record<string, unknown>)[field]).toBe(kind);
  }
}

/** The list as the API must answer it: the site file's entries, without fields the call leaves out. */
const withoutDetail = ({ detail: _detail, ...item }: SiteFile["news"][number]) => item;

describe("the content API's call table", () => {
  it("has a handler for every GET call of the shared table", () => {
    const missing = API_CALLS.filter((call) => call.method === "GET" && !CALL_HANDLERS[call.id]).map((call) => call.id);
    expect(missing).toEqual([]);
  });
});

describeEachDatabase("content api", (databases) => {
  const site = buildFixtureSite();
  let content: ContentDb;
  let api: StartedContentApi;
  const get = <T>(path: string, init?: RequestInit) => getJson<T>(api.url, `/api/portal${path}`, init);

  beforeAll(async () => {
    content = await openContentDb(await databases.create());
    await importSite(content, site);
    api = await startContentApi(content, { host: "127.0.0.1", port: 0 });
  });

  afterAll(async () => {
    await api?.close();
    await content?.close();
    await databases.dispose();
  });

  it("listens on 127.0.0.1 and answers in the envelope, without X-Powered-By", async () => {
    expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const answer = await get("/sys/syscfg");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(answer.headers.get("x-powered-by")).toBeNull();
    expect(answer.body).toEqual({ code: 0, msg: "ok", data: site.syscfg });
  });

  describe("site settings", () => {
    it("answers the site config and author for any image scope", async () => {
      expect((await get("/sys/syscfg?imgScope=3")).body.data).toEqual(site.syscfg);
      expect((await get("/sys/sysauthor")).body.data).toEqual(site.sysauthor);
      expect((await get("/sys/sysauthor?imgScope=9")).body.data).toEqual(site.sysauthor);
    });

    it("answers the home html and the company introduction", async () => {
      expect((await get("/sys/indexhtml")).body).toEqual({ code: 0, msg: "ok", data: { html: site.indexhtml.html } });
      expect((await get("/plan/company")).body.data).toEqual({ brief: site.company.brief });
    });
  });

  describe("plain lists, in site file order", () => {
    it("lists every menu item, deleted ones included", async () => {
      const { body } = await get<MenuItem[]>("/sys/menu/list");
      expectShape(body.data, SHAPES.menu);
      expect(body.data).toEqual(site.menus);
    });

    it("lists all slides, partners and founders", async () => {
      const slides = (await get<Slide[]>("/message/indexslide/list")).body.data;
      expectShape(slides, SHAPES.slide);
      expect(slides).toEqual(site.slides);
      const partners = (await get<Partner[]>("/crm/partner/list")).body.data;
      expectShape(partners, SHAPES.partner);
      expect(partners).toEqual(site.partners);
      const founders = (await get<Founder[]>("/plan/member/joblevel/1/list")).body.data;
      expectShape(founders, SHAPES.founder);
      expect(founders).toEqual(site.founders);
    });

    it("lists products and services", async () => {
      const products = (await get<Product[]>("/product/product/list")).body.data;
      expectShape(products, SHAPES.product);
      expect(products).toEqual(site.products);
      const services = (await get<Service[]>("/service/service/list")).body.data;
      expectShape(services, SHAPES.service);
      expect(services).toEqual(site.services);
    });

    it("lists job types and job addresses", async () => {
      const types = (await get<JobType[]>("/job/jobtype/list")).body.data;
      expectShape(types, SHAPES.named);
      expect(types).toEqual(site.jobTypes);
      const addrs = (await get<JobAddr[]>("/job/jobaddr/list")).body.data;
      expectShape(addrs, SHAPES.named);
      expect(addrs).toEqual(site.jobAddrs);
    });
  });

  describe("details", () => {
    it("answers a product and a service by id, up to 2^53-1", async () => {
      const product = (await get<Product>("/product/product/1")).body.data;
      expectShape([product], SHAPES.product);
      expect(product).toEqual(site.products.find((p) => p.id === 1));
      expect((await get<Product>(`/product/product/${MAX_ID}`)).body.data.name).toBe("最大编号产品");
      const service = (await get<Service>("/service/service/3")).body.data;
      expectShape([service], SHAPES.service);
      expect(service).toEqual(site.services.find((s) => s.id === 3));
    });

    it("answers a news item and a notice with their HTML detail", async () => {
      const news = (await get<Message>("/message/news/12")).body.data;
      expectShape([news], SHAPES.message);
      expect(news).toEqual(site.news.find((m) => m.id === 12));
      const notice = (await get<Message>("/message/notice/3")).body.data;
      expect(notice).toEqual(site.notices.find((m) => m.id === 3));
    });

    it("answers a job", async () => {
      const job = (await get<Job>("/job/job/7")).body.data;
      expectShape([job], SHAPES.job);
      expect(job).toEqual(expect.objectContaining(site.jobs.find((j) => j.id === 7)));
    });

    it.each([
      "/product/product/999",
      `/product/product/${MAX_ID - 1}`,
      "/service/service/999",
      "/message/news/999",
      // Notice ids are their own: notice 20 does not exist although news 20 does.
      "/message/notice/20",
      "/job/job/999",
    ])("answers 404 no such item for %s", async (path) => {
      const answer = await get(path);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ code: 404, msg: "no such item", data: null });
    });

    it.each(["0", "01", "-1", "1.5", "1e3", "abc", String(MAX_ID + 1), "99999999999999999"])("answers 400 for the id %s", async (id) => {
      const answer = await get(`/product/product/${id}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: 400, msg: expect.stringMatching(/^id /), data: null });
    });
  });

  describe("paged messages", () => {
    const newest = (items: SiteFile["news"]) =>
      [...items].sort((a, b) => b.dateTime.localeCompare(a.dateTime) || b.id - a.id).map(withoutDetail);

    it("pages news newest first (dateTime, then id), 0-based, without detail", async () => {
      const expected = newest(site.news);
      const pages = await Promise.all([0, 1, 2].map((i) => get<Paged<Message>>(`/message/news/list?pageIndex=${i}&pageMaxCount=10`)));
      for (const [i, { body }] of pages.entries()) {
        expect(body.data.totalCount).toBe(FIXTURE.news);
        expect(body.data.totalPageCount).toBe(3);
        expectShape(body.data.pageDataList, SHAPES.messageItem);
        expect(body.data.pageDataList).toEqual(expected.slice(i * 10, i * 10 + 10));
      }
      // The last page is partial; the tie on dateTime puts id 12 before id 11.
      expect(pages[2]?.body.data.pageDataList).toHaveLength(5);
      const ids = expected.map((m) => m.id);
      expect(ids.indexOf(12)).toBe(ids.indexOf(11) - 1);
    });

    it("answers an empty page past the end with the same totals", async () => {
      const { body } = await get<Paged<Message>>("/message/news/list?pageIndex=3&pageMaxCount=10");
      expect(body.data).toEqual({ pageDataList: [], totalCount: FIXTURE.news, totalPageCount: 3 });
      const far = await get<Paged<Message>>("/message/news/list?pageIndex=100000&pageMaxCount=100");
      expect(far.body.data).toEqual({ pageDataList: [], totalCount: FIXTURE.news, totalPageCount: 1 });
    });

    it("defaults to the first page of 20", async () => {
      const { body } = await get<Paged<Message>>("/message/news/list");
      expect(body.data.pageDataList).toEqual(newest(site.news).slice(0, 20));
      expect(body.data.totalPageCount).toBe(2);
      const empty = await get<Paged<Message>>("/message/news/list?pageIndex=&pageMaxCount=");
      expect(empty.body.data).toEqual(body.data);
    });

    it("pages notices separately from news", async () => {
      const { body } = await get<Paged<Message>>("/message/notice/list?pageIndex=1&pageMaxCount=3");
      expect(body.data.totalCount).toBe(FIXTURE.notices);
      expect(body.data.totalPageCount).toBe(3);
      expect(body.data.pageDataList).toEqual(newest(site.notices).slice(3, 6));
    });

    it("pages milestones newest first (date, then id)", async () => {
      const expected = [...site.milestones].sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id);
      const first = await get<Paged<Milestone>>("/plan/milepost/list?pageIndex=0&pageMaxCount=4");
      const second = await get<Paged<Milestone>>("/plan/milepost/list?pageIndex=1&pageMaxCount=4");
      expectShape(first.body.data.pageDataList, SHAPES.milestone);
      expect(first.body.data).toEqual({ pageDataList: expected.slice(0, 4), totalCount: FIXTURE.milestones, totalPageCount: 2 });
      expect(second.body.data.pageDataList).toEqual(expected.slice(4));
      expect(expected.slice(4).map((m) => m.id)).toEqual([2, 1, 3]);
    });
  });

  describe("job list", () => {
    const jobsWhere = (keep: (job: SiteFile["jobs"][number]) => boolean) => site.jobs.filter(keep).sort((a, b) => a.id - b.id);
    const jobIds = async (query: string) => {
      const { status, body } = await get<Paged<Job>>(`/job/job/list?pageMaxCount=100&${query}`);
      expect(status).toBe(200);
      expectShape(body.data.pageDataList, SHAPES.job);
      return body.data.pageDataList.map((j) => j.id);
    };

    it("lists all jobs in id order without filters", async () => {
      const { body } = await get<Paged<Job>>("/job/job/list?pageIndex=2&pageMaxCount=10");
      expect(body.data.totalCount).toBe(FIXTURE.jobs);
      expect(body.data.totalPageCount).toBe(3);
      expect(body.data.pageDataList.map((j) => j.id)).toEqual([21, 22, 23, 24]);
      expect(body.data.pageDataList[0]).toEqual(site.jobs.find((j) => j.id === 21));
    });

    it("filters by kind, job types and addresses, alone and combined", async () => {
      expect(await jobIds("type=1")).toEqual(jobsWhere((j) => j.type === 1).map((j) => j.id));
      expect(await jobIds("type=2")).toEqual(jobsWhere((j) => j.type === 2).map((j) => j.id));
      expect(await jobIds("jobTypeIds=1,3")).toEqual(jobsWhere((j) => [1, 3].includes(j.jobTypeId)).map((j) => j.id));
      expect(await jobIds("jobAddrIds=2")).toEqual(jobsWhere((j) => j.jobAddrId === 2).map((j) => j.id));
      const combined = jobsWhere((j) => j.type === 2 && [2, 4].includes(j.jobTypeId) && [1, 3].includes(j.jobAddrId));
      expect(combined.map((j) => j.id)).toEqual([2, 6, 14, 18]);
      expect(await jobIds("type=2&jobTypeIds=4,2&jobAddrIds=3,1")).toEqual(combined.map((j) => j.id));
      expect(await jobIds("jobTypeIds=999")).toEqual([]);
    });

    it("treats an empty id list as no filter", async () => {
      expect(await jobIds("jobTypeIds=&jobAddrIds=&type=")).toEqual(jobsWhere(() => true).map((j) => j.id));
    });

    it("counts only the matching jobs", async () => {
      const { body } = await get<Paged<Job>>("/job/job/list?type=1&jobAddrIds=1&pageMaxCount=3");
      const total = jobsWhere((j) => j.type === 1 && j.jobAddrId === 1).length;
      expect(body.data.totalCount).toBe(total);
      expect(body.data.totalPageCount).toBe(Math.ceil(total / 3));
    });
  });

  describe("readers", () => {
    it("counts a reader PUT and answers the count", async () => {
      expect((await get("/reader/reader?type=2&pid=1")).body).toEqual({ code: 0, msg: "ok", data: 40 });
      const put = await putReader(api.url, { type: 2, pid: 1 });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ code: 0, msg: "ok", data: null });
      expect((await get("/reader/reader?pid=1&type=2")).body.data).toBe(41);
      // The same pid as a notice is another message with its own count.
      expect((await get("/reader/reader?type=1&pid=1")).body.data).toBe(0);
    });

    it("answers 404 for a PUT on a message that does not exist, and counts nothing", async () => {
      const put = await putReader(api.url, { type: 1, pid: 20 });
      expect(put.status).toBe(404);
      expect(put.body).toEqual({ code: 404, msg: "no such item", data: null });
      expect((await get("/reader/reader?type=1&pid=20")).body.data).toBe(0);
    });

    it.each([
      ["a string pid", { type: 2, pid: "1" }],
      ["a string type", { type: "2", pid: 1 }],
      ["pid 0", { type: 2, pid: 0 }],
      ["pid 2^53", { type: 2, pid: MAX_ID + 1 }],
      ["a fractional pid", { type: 2, pid: 1.5 }],
      ["type 3", { type: 3, pid: 1 }],
      ["a missing pid", { type: 2 }],
      ["an extra field", { type: 2, pid: 1, count: 100 }],
      ["an array", [2, 1]],
      ["null", null],
      ["a bare number", 1],
      ["invalid JSON", '{"type":2,'],
      ["an empty body", ""],
    ])("answers 400 for a PUT body with %s", async (_what, body) => {
      const put = await putReader(api.url, body);
      expect(put.status).toBe(400);
      expect(put.body).toEqual({ code: 400, msg: expect.any(String), data: null });
      expect(put.body.msg).not.toMatch(/at .*\.ts|node_modules/);
    });

    it("answers 413 for a body over 1 KB", async () => {
      const put = await putReader(api.url, JSON.stringify({ type: 2, pid: 1, pad: "x".repeat(2000) }));
      expect(put.status).toBe(413);
      expect(put.body).toEqual({ code: 413, msg: expect.any(String), data: null });
    });

    it.each([
      ["no pid", "type=2"],
      ["no type", "pid=1"],
      ["type 0", "type=0&pid=1"],
      ["pid 0", "type=1&pid=0"],
      ["a signed pid", "type=1&pid=+1"],
    ])("answers 400 for a count query with %s", async (_what, query) => {
      const answer = await get(`/reader/reader?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe(400);
    });
  });

  describe("bad requests", () => {
    it.each([
      ["/message/news/list?pageIndex=-1", "pageIndex"],
      ["/message/news/list?pageIndex=100001", "pageIndex"],
      ["/message/news/list?pageMaxCount=0", "pageMaxCount"],
      ["/message/news/list?pageMaxCount=101", "pageMaxCount"],
      ["/plan/milepost/list?pageMaxCount=1.5", "pageMaxCount"],
      ["/job/job/list?type=3", "type"],
      ["/job/job/list?jobTypeIds=1,x", "jobTypeIds"],
      ["/job/job/list?jobAddrIds=0", "jobAddrIds"],
      ["/message/notice/list?pageIndex=1&pageIndex=2", "pageIndex"],
      ["/sys/syscfg?imgScope=10", "imgScope"],
    ])("answers 400 naming the parameter for %s", async (path, name) => {
      const answer = await get(path);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: 400, msg: expect.stringContaining(name), data: null });
    });

    it("ignores parameters a call does not take", async () => {
      const answer = await get("/product/product/list?pageIndex=x&foo=bar");
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual(site.products);
    });

    it.each(["/nope", "/product/product/list/extra", "/product/product/", "", "/sys"])(
      "answers a 404 envelope for the unknown path %s",
      async (path) => {
        const answer = await get(path);
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ code: 404, msg: "no such call", data: null });
      },
    );

    it("answers a 404 envelope outside /api/portal", async () => {
      const answer = await getJson(api.url, "/elsewhere");
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ code: 404, msg: "no such call", data: null });
    });

    it("answers 405 with Allow for a method a call does not take", async () => {
      const post = await get("/product/product/list", { method: "POST" });
      expect(post.status).toBe(405);
      expect(post.headers.get("allow")).toBe("GET, HEAD");
      expect(post.body).toEqual({ code: 405, msg: "method not allowed", data: null });
      const del = await get("/reader/reader", { method: "DELETE" });
      expect(del.headers.get("allow")).toBe("GET, HEAD, PUT");
    });

    it("answers HEAD like GET, without a body", async () => {
      const response = await fetch(`${api.url}/api/portal/sys/menu/list`, { method: "HEAD" });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("");
    });
  });
});
