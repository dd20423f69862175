/**
 * Every call of docs/behaviour.md#calls through the embedded content API over HTTP, on
 * SQLite and PostgreSQL: the call table, site settings, plain lists, details and their
 * entity shapes, and the 400 / 404 / 405 / 413 answers.
 */
import { describe, expect, it } from "vitest";
import { CALL_HANDLERS } from "../../../server/content/api-handlers.ts";
import { API_CALLS } from "../../../shared/api-calls.ts";
import type { Founder, Job, JobAddr, JobType, MenuItem, Message, Partner, Product, Service, Slide } from "../../../shared/entities.ts";
import { getJson } from "../../support/content-http.ts";
import { describeEachDatabase } from "../../support/databases.ts";
import { expectShape, SHAPES } from "../../support/entity-shapes.ts";
import { serveFixtureSite } from "../../support/fixture-content-api.ts";
import { MAX_ID } from "../../support/fixture-site.ts";

describe("the content API's call table", () => {
  it("has a handler for every GET call of the shared table", () => {
    const missing = API_CALLS.filter((call) => call.method === "GET" && !CALL_HANDLERS[call.id]).map((call) => call.id);
    expect(missing).toEqual([]);
  });
});

describeEachDatabase("content api", (databases) => {
  const { site, url, get } = serveFixtureSite(databases);

  it("listens on 127.0.0.1 and answers in the envelope, without X-Powered-By", async () => {
    expect(url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
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
      const answer = await getJson(url(), "/elsewhere");
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
      const response = await fetch(`${url()}/api/portal/sys/menu/list`, { method: "HEAD" });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("");
    });
  });
});
