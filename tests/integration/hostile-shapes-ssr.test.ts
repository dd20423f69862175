/**
 * Upstream answers whose strings come as other JSON types: every string field of every
 * call a page makes, at any depth, replaced by an array, a nested array, an object, a
 * string-like object, an own `__proto__` key, a number, a boolean or null, each carrying
 * a markup payload. Every page the built site serves still renders (never a 500), its
 * HTML has no payload in an executable position, and every HTML field the API answers is
 * a string or absent.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executablePayloads, HOSTILE_SHAPES, reshapeStrings } from "../../harness/hostile-content.ts";
import { type ListedItem, samplePages } from "../../harness/page-samples.ts";
import { API_PREFIX, CALL_TABLE } from "../../shared/call-table.ts";
import { pageHref } from "../../shared/routes.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const paged = (items: unknown[]) => ({ pageDataList: items, totalCount: items.length, totalPageCount: 1 });
const message = (id: number) => ({ id, title: "标题", brief: "摘要", img: "/m.png", dateTime: "20240301093000", detail: "<p>正文</p>" });
const job = (id: number, type: number) => ({
  id,
  name: "职位",
  jobTypeId: 1,
  jobAddrId: 1,
  salary: "10K",
  description: "<p>描述</p>",
  requirement: "<p>要求</p>",
  callHr: "<p>邮件</p>",
  type,
});

/** Every call the pages make, with ordinary content: each string is what the shapes replace. */
function siteRoutes(layout: 1 | 2): Record<string, unknown> {
  return {
    "/api/portal/sys/syscfg": {
      themePortal: `1,${layout}`,
      ico: "/favicon.ico",
      metaKeywords: "关键词",
      metaDescription: "描述",
      baiduVerify: "b",
      so360Verify: "s",
      tencentVerify: "t",
      googleVerify: "g",
      copyright: "©",
      record: "备案",
      edi: "edi",
      policeRecord: "公安备案",
    },
    "/api/portal/sys/sysauthor": {
      name: "公司",
      fname: "公司全称",
      logo: "/logo.png",
      phone: "+86 571",
      email: "a@b.example",
      qq1: "123",
      wx1: "wx",
      addr1: "地址",
      qrcode1: "/qr.png",
    },
    "/api/portal/sys/menu/list": [
      { id: 1, pid: 0, title: "关于", url: "/about/index.html", urlType: 1, delflag: 0 },
      { id: 2, pid: 0, title: "外链", url: "https://e.example/", urlType: 2, delflag: 0 },
    ],
    "/api/portal/sys/indexhtml": { html: "<section><p>首页</p></section>" },
    "/api/portal/message/indexslide/list": [{ title: "幻灯片", url: "https://e.example/", img: "/s.png" }],
    "/api/portal/product/product/list": [{ id: 1, name: "产品", propImg: "/p.png", type: 1, detail: "<p>产品</p>" }],
    "/api/portal/product/product/1": { id: 1, name: "产品", propImg: "/p.png", type: 1, detail: "<p>产品</p>" },
    "/api/portal/service/service/list": [{ id: 2, name: "服务", type: 1, detail: "<p>服务</p>" }],
    "/api/portal/service/service/2": { id: 2, name: "服务", type: 1, detail: "<p>服务</p>" },
    "/api/portal/message/news/list": paged([message(1)]),
    "/api/portal/message/news/1": message(1),
    "/api/portal/message/notice/list": paged([message(2)]),
    "/api/portal/message/notice/2": message(2),
    "/api/portal/crm/partner/list": [{ logo: "/l.png", url: "https://e.example/" }],
    "/api/portal/plan/company": { brief: "<p>简介</p>" },
    "/api/portal/plan/member/joblevel/1/list": [{ picture: "/f.png", name: "创始人", job: "CEO", brief: "简介" }],
    "/api/portal/plan/milepost/list": paged([{ date: "202403", brief: "里程碑" }]),
    "/api/portal/job/jobtype/list": [{ id: 1, name: "研发" }],
    "/api/portal/job/jobaddr/list": [{ id: 1, name: "杭州" }],
    "/api/portal/job/job/list": paged([job(3, 1), job(4, 2)]),
    "/api/portal/job/job/3": job(3, 1),
    "/api/portal/job/job/4": job(4, 2),
    "/api/portal/reader/reader": 7,
  };
}

/** Items of a list call as the stand-in answers it (a list, or one page of a paged list). */
const itemsIn = (routes: Record<string, unknown>) => (call: string) => {
  const answer = routes[API_PREFIX + (CALL_TABLE.find((entry) => entry.id === call)?.path ?? "")];
  return (Array.isArray(answer) ? answer : ((answer as { pageDataList?: ListedItem[] } | undefined)?.pageDataList ?? [])) as ListedItem[];
};

/** Every page type, a detail page in English, and a detail nobody has (404). */
const PAGES: string[] = [
  ...samplePages(itemsIn(siteRoutes(1))).map((page) => page.path),
  pageHref("noticeDetail", 2, "en"),
  pageHref("newsDetail", 99),
];

/** The HTML fields of each call (docs/behaviour.md#html-fields), as the API answers them, wherever they sit in the payload. */
function htmlFieldsOf(callPath: string, data: unknown): unknown[] {
  const names = new Set(["detail", "description", "requirement", "callHr"]);
  if (callPath === "/plan/company") names.add("brief");
  if (callPath === "/sys/indexhtml") names.add("html");
  const found: unknown[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        if (names.has(key)) found.push(item);
        else walk(item);
      }
    }
  };
  walk(data);
  return found;
}

for (const layout of [1, 2] as const) {
  describe.each(HOSTILE_SHAPES)(`every string field as $name (home layout ${layout})`, (shape) => {
    let upstream: StandInUpstream;
    let site: BuiltSite;

    beforeAll(async () => {
      const routes = Object.fromEntries(Object.entries(siteRoutes(layout)).map(([path, data]) => [path, reshapeStrings(data, shape.of)]));
      upstream = await startStandInUpstream(routes);
      site = await startBuiltSite({ API_BASE_URL: upstream.url, PUBLIC_ORIGIN: "https://www.example.com" });
    });

    afterAll(async () => {
      await site?.close();
      await upstream?.close();
    });

    it("renders every page, with no payload in an executable position", async () => {
      const failures: string[] = [];
      for (const path of layout === 1 ? PAGES : PAGES.slice(0, 1)) {
        const res = await request(site.origin).get(path);
        const expected = path.endsWith("/99") ? 404 : 200;
        if (res.status !== expected) failures.push(`${path}: ${res.status} ${res.status >= 500 ? res.text.slice(0, 300) : ""}`);
        const found = executablePayloads(res.text);
        if (found.length > 0) failures.push(`${path}: ${found.slice(0, 3).join(" | ")}`);
      }
      expect(failures).toEqual([]);
    });

    it("answers every HTML field through the API as a safe string or not at all", async () => {
      const failures: string[] = [];
      for (const upstreamPath of upstream.routes.keys()) {
        const callPath = upstreamPath.replace("/api/portal", "");
        const res = await request(site.origin).get(upstreamPath + (upstreamPath.endsWith("/reader") ? "?type=2&pid=1" : ""));
        expect(res.status, upstreamPath).toBe(200);
        for (const value of htmlFieldsOf(callPath, res.body.data)) {
          if (typeof value !== "string") failures.push(`${callPath}: ${JSON.stringify(value).slice(0, 60)}`);
          else if (executablePayloads(value, { wholePage: false }).length > 0) failures.push(`${callPath}: ${value.slice(0, 60)}`);
        }
      }
      expect(failures).toEqual([]);
    });
  });
}
