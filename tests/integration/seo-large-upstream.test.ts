/**
 * The sitemap and feeds (no pages, in the test's process) over a stand-in upstream with more
 * than 100 news (paging), awkward titles and failures, without PUBLIC_ORIGIN.
 */
import { Writable } from "node:stream";
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { testConfig } from "../support/config.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";
import { childText, findAll, parseXml, type XmlElement } from "../support/xml-reader.ts";

// --- A stand-in upstream: 250 news (three pages of 100), awkward titles, failures, no PUBLIC_ORIGIN.

const NEWS_COUNT = 250;
const AWKWARD = 'A & B <c> \u0001"q"';

function message(id: number) {
  // News 1 is the oldest; the upstream lists newest first. Minutes keep every date distinct and valid.
  const minutes = id * 7;
  const dateTime = `202601${String(1 + Math.floor(minutes / 1440)).padStart(2, "0")}${String(Math.floor(minutes / 60) % 24).padStart(2, "0")}${String(minutes % 60).padStart(2, "0")}00`;
  return { id, title: id === NEWS_COUNT ? AWKWARD : `News ${id}`, brief: `Brief & <b>${id}</b>`, img: "", dateTime };
}

function pagedList(all: ReturnType<typeof message>[]) {
  return (url: URL) => {
    const index = Number(url.searchParams.get("pageIndex") ?? 0);
    const size = Number(url.searchParams.get("pageMaxCount") ?? 20);
    return {
      body: {
        code: 0,
        msg: "ok",
        data: {
          pageDataList: all.slice(index * size, index * size + size),
          totalCount: all.length,
          totalPageCount: Math.ceil(all.length / size),
        },
      },
    };
  };
}

function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: pino({ level: "warn" }, stream), lines };
}

describe("search engines over a large upstream, without PUBLIC_ORIGIN", () => {
  let upstream: StandInUpstream;
  const news = Array.from({ length: NEWS_COUNT }, (_, i) => message(NEWS_COUNT - i));

  beforeAll(async () => {
    upstream = await startStandInUpstream({
      "/api/portal/sys/syscfg": { metaDescription: "Site & <description>" },
      "/api/portal/sys/sysauthor": { name: "Acme & <Co>", fname: "Acme Ltd", logo: "/l.svg" },
      "/api/portal/product/product/list": [{ id: 3, name: "P" }],
      "/api/portal/service/service/list": [],
      "/api/portal/message/notice/list": { pageDataList: [message(9)], totalCount: 1, totalPageCount: 1 },
    });
    upstream.routes.set("/api/portal/message/news/list", pagedList(news));
    upstream.routes.set("/api/portal/job/job/list", (url: URL) => ({
      body: {
        code: 0,
        msg: "ok",
        data: { pageDataList: [{ id: url.searchParams.get("type") === "1" ? 11 : 12, name: "J" }], totalCount: 1, totalPageCount: 1 },
      },
    }));
  });

  afterAll(async () => {
    await upstream.close();
  });

  const newApp = (logger = memoryLogger().logger) => createApp(testConfig({ API_BASE_URL: upstream.url }), { logger });

  it("pages through every news list page with pageMaxCount 100 and lists every id, root-relative", async () => {
    const { logger, lines } = memoryLogger();
    const app = newApp(logger);
    const res = await request(app).get("/sitemap.xml").set("Host", "evil.example");
    expect(res.status).toBe(200);
    const locs = findAll(parseXml(res.text), "loc").map((l) => l.text);
    for (let id = 1; id <= NEWS_COUNT; id++) expect(locs).toContain(`/portal/message/news/${id}`);
    expect(locs).toContain("/portal/message/notice/9");
    expect(locs).toContain("/portal/product/3");
    expect(locs).toContain("/portal/job/society/11");
    expect(locs).toContain("/portal/job/school/12");
    expect(locs.every((loc) => loc.startsWith("/portal/"))).toBe(true);
    const newsCalls = upstream.requests
      .filter((r) => r.url.startsWith("/api/portal/message/news/list?"))
      .map((r) => new URL(r.url, "http://x").searchParams);
    expect(newsCalls.map((q) => q.get("pageMaxCount"))).toEqual(["100", "100", "100"]);
    expect(newsCalls.map((q) => q.get("pageIndex")).sort()).toEqual(["0", "1", "2"]);

    // Without PUBLIC_ORIGIN robots.txt names no sitemap (it would have to be absolute), and the operator is told once.
    const robots = await request(app).get("/robots.txt").set("Host", "evil.example");
    expect(robots.text).not.toContain("Sitemap:");
    expect(robots.text).not.toContain("evil.example");
    await request(app).get("/portal/sitemap.xml");
    await request(app).get("/portal/message/news/rss.xml");
    expect(lines.filter((l) => String(l.msg).includes("PUBLIC_ORIGIN"))).toHaveLength(1);
    app.portal.close();
  });

  it("keeps the generated sitemap, so repeated crawls do not regenerate it", async () => {
    const app = newApp();
    const first = await request(app).get("/sitemap.xml");
    const calls = upstream.requests.length;
    const again = await Promise.all([request(app).get("/sitemap.xml"), request(app).get("/portal/sitemap.xml")]);
    expect(upstream.requests.length).toBe(calls);
    for (const res of again) expect(res.text).toBe(first.text);
    app.portal.close();
  });

  it("feeds the 50 newest items, escaped, with RFC 822 dates", async () => {
    const app = newApp();
    const res = await request(app).get("/portal/message/news/rss.xml");
    expect(res.status).toBe(200);
    const channel = findAll(parseXml(res.text), "channel")[0] as XmlElement;
    expect(childText(channel, "title")).toBe("Acme & <Co> - 新闻动态");
    expect(childText(channel, "description")).toBe("Site & <description>");
    expect(childText(channel, "link")).toBe("/portal/message/news/list.html");
    const items = findAll(channel, "item");
    expect(items).toHaveLength(50);
    expect(items.map((i) => childText(i, "link"))).toEqual(Array.from({ length: 50 }, (_, i) => `/portal/message/news/${NEWS_COUNT - i}`));
    // The forbidden control character is dropped; the rest is escaped, never raw.
    expect(childText(items[0] as XmlElement, "title")).toBe('A & B <c> "q"');
    expect(res.text).toContain("<title>A &amp; B &lt;c&gt; &quot;q&quot;</title>");
    expect(childText(items[0] as XmlElement, "description")).toBe(`Brief & <b>${NEWS_COUNT}</b>`);
    // News 250: 1750 minutes after 2026-01-01 00:00 is 2 Jan 05:10, a Friday.
    expect(childText(items[0] as XmlElement, "pubDate")).toBe("Fri, 02 Jan 2026 05:10:00 +0800");
    app.portal.close();
  });

  it("answers 503 with Retry-After, never a 404 or a redirect, when the upstream is down", async () => {
    const app = newApp();
    upstream.behaviour = "error";
    try {
      for (const url of ["/sitemap.xml", "/portal/sitemap.xml", "/portal/message/news/rss.xml", "/portal/message/notice/rss.xml"]) {
        const res = await request(app).get(url);
        expect(res.status, url).toBe(503);
        expect(Number(res.headers["retry-after"]), url).toBeGreaterThan(0);
        expect(res.headers["cache-control"]).toBe("no-store");
        expect(res.text).not.toContain("10.0.0.7");
      }
      // robots.txt needs no upstream.
      expect((await request(app).get("/robots.txt")).status).toBe(200);
    } finally {
      upstream.behaviour = "ok";
    }
    // Failures are not kept: the next crawl gets the sitemap.
    expect((await request(app).get("/sitemap.xml")).status).toBe(200);
    app.portal.close();
  });
});
