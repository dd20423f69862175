/**
 * What search engines and feed readers get from the demo site as the built `npm start` serves
 * it (embedded content API, PUBLIC_ORIGIN set): robots.txt, the sitemap and the RSS feeds.
 */
import http from "node:http";
import zlib from "node:zlib";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { demo, demoSiteForTheSuite, ORIGIN, site } from "../support/seo-demo-site.ts";
import { childText, findAll, parseXml, type XmlElement } from "../support/xml-reader.ts";

describe("search engines on the demo site", () => {
  demoSiteForTheSuite();

  it("serves robots.txt that allows the site, keeps out the API and names the absolute sitemap", async () => {
    const res = await request(site.origin).get("/robots.txt").set("Host", "evil.example").set("X-Forwarded-Host", "evil.example");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const lines = res.text.split("\n");
    expect(lines).toContain("User-agent: *");
    expect(lines).toContain("Allow: /");
    expect(lines).toContain("Disallow: /api/");
    expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    expect(res.text).not.toContain("evil.example");
  });

  it("lists every page and every detail the upstream knows, at absolute canonical URLs from PUBLIC_ORIGIN only", async () => {
    for (const url of ["/sitemap.xml", "/portal/sitemap.xml"]) {
      const res = await request(site.origin)
        .get(url)
        .set("Host", "evil.example")
        .set("X-Forwarded-Host", "evil.example")
        .set("X-Forwarded-Proto", "http");
      expect(res.status, url).toBe(200);
      expect(res.headers["content-type"]).toBe("application/xml; charset=utf-8");
      expect(res.headers["cache-control"]).toMatch(/^public, max-age=\d+$/);
      const urlset = parseXml(res.text);
      expect(urlset.name).toBe("urlset");
      expect(urlset.attrs.xmlns).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
      const locs = findAll(urlset, "loc").map((loc) => loc.text);
      expect(locs.every((loc) => loc.startsWith(`${ORIGIN}/portal/`))).toBe(true);
      expect(locs.some((loc) => loc.includes("?"))).toBe(false);
      expect(new Set(locs).size).toBe(locs.length);

      const expected = [
        "/index.html",
        "/about/index.html",
        "/about/member/index.html",
        "/about/milepost/index.html",
        "/message/news/list.html",
        "/message/notice/list.html",
        "/job/society/index.html",
        "/job/school/index.html",
        "/contact.html",
        ...demo.news.map((n) => `/message/news/${n.id}`),
        ...demo.notices.map((n) => `/message/notice/${n.id}`),
        ...demo.products.map((p) => `/product/${p.id}`),
        ...demo.services.map((s) => `/service/${s.id}`),
        ...demo.jobs.map((j) => `/job/${j.type === 1 ? "society" : "school"}/${j.id}`),
      ].map((p) => `${ORIGIN}/portal${p}`);
      // In Chinese every page; in English, beside it, each page the upstream has translated (languages.test.ts checks which).
      const english = locs.filter((loc) => loc.startsWith(`${ORIGIN}/portal/en/`));
      expect(locs.filter((loc) => !english.includes(loc)).sort()).toEqual([...expected].sort());
      for (const loc of english) expect(expected, loc).toContain(loc.replace("/portal/en/", "/portal/"));
      expect(english.length).toBeGreaterThan(0);
    }
  });

  it("dates each message in the sitemap from its dateTime, in China time", async () => {
    const res = await request(site.origin).get("/sitemap.xml");
    const urls = findAll(parseXml(res.text), "url");
    const news = demo.news[0] as { id: number; dateTime: string };
    const entry = urls.find((u) => childText(u, "loc") === `${ORIGIN}/portal/message/news/${news.id}`) as XmlElement;
    const d = news.dateTime;
    expect(childText(entry, "lastmod")).toBe(
      `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${d.slice(8, 10)}:${d.slice(10, 12)}:${d.slice(12, 14)}+08:00`,
    );
    const about = urls.find((u) => childText(u, "loc") === `${ORIGIN}/portal/about/index.html`) as XmlElement;
    expect(childText(about, "lastmod")).toBeUndefined();
  });

  it("serves the news and notice feeds as RSS 2.0 with canonical links and RFC 822 China-time dates", async () => {
    const res = await request(site.origin).get("/portal/message/news/rss.xml").set("Host", "evil.example");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/rss+xml; charset=utf-8");
    const rss = parseXml(res.text);
    expect(rss.name).toBe("rss");
    expect(rss.attrs.version).toBe("2.0");
    const channel = findAll(rss, "channel")[0] as XmlElement;
    expect(childText(channel, "title")).toBe("青禾数智 - 新闻动态");
    expect(childText(channel, "link")).toBe(`${ORIGIN}/portal/message/news/list.html`);
    expect(childText(channel, "description")).toContain("青禾数智");
    expect(childText(channel, "language")).toBe("zh-cn");
    const self = findAll(channel, "atom:link")[0] as XmlElement;
    expect(self.attrs).toMatchObject({ href: `${ORIGIN}/portal/message/news/rss.xml`, rel: "self", type: "application/rss+xml" });
    expect(rss.attrs["xmlns:atom"]).toBe("http://www.w3.org/2005/Atom");

    const items = findAll(channel, "item");
    expect(items).toHaveLength(Math.min(50, demo.news.length));
    const newest = [...demo.news].sort((a, b) => (a.dateTime < b.dateTime ? 1 : -1))[0] as { id: number; dateTime: string };
    const first = items[0] as XmlElement;
    expect(childText(first, "link")).toBe(`${ORIGIN}/portal/message/news/${newest.id}`);
    expect(childText(first, "guid")).toBe(childText(first, "link"));
    expect(first.children.find((c) => c.name === "guid")?.attrs.isPermaLink).toBe("true");
    // The demo's newest news is dated 20261110091040.
    expect(childText(first, "pubDate")).toBe("Tue, 10 Nov 2026 09:10:40 +0800");
    for (const item of items) {
      expect(childText(item, "pubDate")).toMatch(
        /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d \+0800$/,
      );
      expect(childText(item, "description")).toBeTruthy();
    }
    expect(res.text).not.toContain("evil.example");

    const notices = await request(site.origin).get("/portal/message/notice/rss.xml");
    expect(notices.status).toBe(200);
    const noticeChannel = findAll(parseXml(notices.text), "channel")[0] as XmlElement;
    expect(childText(noticeChannel, "title")).toBe("青禾数智 - 通知公告");
    expect(findAll(noticeChannel, "item").map((i) => childText(i, "link"))[0]).toMatch(
      new RegExp(`^${ORIGIN}/portal/message/notice/\\d+$`),
    );
  });

  it("sends the feed and the sitemap from codings made once: a whole length in each, the same bytes every time, 304 to their ETag", async () => {
    const raw = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${site.origin}${path}`, { headers, agent: false }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on("error", reject);
      });
    for (const path of ["/portal/message/news/rss.xml", "/sitemap.xml"]) {
      const plain = await raw(path, {});
      expect(plain.status, path).toBe(200);
      for (const [coding, decode] of [
        ["br", zlib.brotliDecompressSync],
        ["gzip", zlib.gunzipSync],
      ] as const) {
        const first = await raw(path, { "Accept-Encoding": coding });
        const again = await raw(path, { "Accept-Encoding": coding });
        expect(first.headers["content-encoding"], `${path} ${coding}`).toBe(coding);
        expect(first.headers["content-length"]).toBe(String(first.body.length));
        expect(first.headers.vary).toBe("Accept-Encoding");
        expect(again.body.equals(first.body)).toBe(true);
        expect(decode(first.body).equals(plain.body)).toBe(true);
        const revalidated = await raw(path, { "Accept-Encoding": coding, "If-None-Match": String(first.headers.etag) });
        expect(revalidated.status).toBe(304);
      }
    }
  });
});
