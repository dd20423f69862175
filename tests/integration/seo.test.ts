/**
 * What search engines and feed readers get: robots.txt, the sitemap, the RSS feeds and
 * the search metadata in every page's server HTML. Once over the demo site as the built
 * `npm start` serves it (embedded content API, PUBLIC_ORIGIN set), once (no pages, in the
 * test's process) over a stand-in upstream with more than 100 news (paging), awkward
 * titles and failures, without PUBLIC_ORIGIN.
 */
import { readFile } from "node:fs/promises";
import { Writable } from "node:stream";
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { DEMO_SITE_FILE } from "../../server/project-root.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { testConfig } from "../support/config.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

// --- A small strict XML reader: enough to prove well-formedness and to query the result.

interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITY = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const NAME = "[A-Za-z_][\\w.:-]*";

function decodeXmlText(raw: string, where: string): string {
  if (raw.replace(ENTITY, "").includes("&")) throw new Error(`bare & in ${where}: ${raw.slice(0, 80)}`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these, which is what is checked.
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(raw)) throw new Error(`forbidden character in ${where}`);
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
  return raw.replace(ENTITY, (_m, ref: string) =>
    ref[0] === "#"
      ? String.fromCodePoint(ref[1] === "x" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1)))
      : (named[ref] as string),
  );
}

/** Parses a whole document strictly: one root, matched tags, quoted unique attributes, escaped text. */
function parseXml(xml: string): XmlElement {
  let at = 0;
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(xml);
  if (!declaration) throw new Error("missing XML declaration");
  at = declaration[0].length;
  const root: XmlElement = { name: "#document", attrs: {}, children: [], text: "" };
  const stack: XmlElement[] = [root];
  const tag = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*"[^"<]*")*)\\s*(/?)>`);
  while (at < xml.length) {
    const lt = xml.indexOf("<", at);
    const text = xml.slice(at, lt === -1 ? xml.length : lt);
    const top = stack[stack.length - 1] as XmlElement;
    if (text.trim()) {
      if (top === root) throw new Error(`text outside the root: ${text.slice(0, 40)}`);
      top.text += decodeXmlText(text, top.name);
    }
    if (lt === -1) break;
    const m = tag.exec(xml.slice(lt));
    if (!m) throw new Error(`malformed markup at ${lt}: ${xml.slice(lt, lt + 60)}`);
    const [whole, closing, name, attrText, selfClosing] = m as unknown as [string, string, string, string, string];
    if (closing) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
    } else {
      const attrs: Record<string, string> = {};
      for (const a of (attrText ?? "").matchAll(new RegExp(`(${NAME})\\s*=\\s*"([^"]*)"`, "g"))) {
        if ((a[1] as string) in attrs) throw new Error(`duplicate attribute ${a[1]}`);
        attrs[a[1] as string] = decodeXmlText(a[2] as string, `${name}@${a[1]}`);
      }
      const element: XmlElement = { name, attrs, children: [], text: "" };
      if (top === root && root.children.length > 0) throw new Error("more than one root element");
      top.children.push(element);
      if (!selfClosing) stack.push(element);
    }
    at = lt + whole.length;
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1]?.name}>`);
  if (root.children.length !== 1) throw new Error("no root element");
  return root.children[0] as XmlElement;
}

function findAll(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((child) => [...(child.name === name ? [child] : []), ...findAll(child, name)]);
}

const childText = (element: XmlElement, name: string) => element.children.find((c) => c.name === name)?.text;

// --- Page head helpers.

const headOf = (html: string) => html.split("</head>")[0] as string;

function linkHref(html: string, attrs: string): string | undefined {
  const m = new RegExp(`<link ${attrs} href="([^"]*)">`).exec(headOf(html));
  return m?.[1]?.replace(/&amp;/g, "&");
}

function jsonLdOf(html: string): Record<string, unknown>[] {
  return [...headOf(html).matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1] as string));
}

const typesOf = (html: string) => jsonLdOf(html).map((block) => block["@type"]);

// --- The demo site, served as production does, with a public origin.

interface DemoSite {
  news: { id: number; dateTime: string }[];
  notices: { id: number }[];
  products: { id: number }[];
  services: { id: number }[];
  jobs: { id: number; type: number; name: string; jobAddrId: number }[];
  jobAddrs: { id: number; name: string }[];
  translations?: { en: { news?: { id: number }[] } };
}

const ORIGIN = "https://www.example.com";

describe("search engines on the demo site", () => {
  let site: BuiltSite;
  let demo: DemoSite;

  beforeAll(async () => {
    demo = JSON.parse(await readFile(DEMO_SITE_FILE, "utf8"));
    site = await startBuiltSite({ PUBLIC_ORIGIN: ORIGIN, TRUST_PROXY: "loopback" });
  });

  afterAll(async () => {
    await site?.close();
  });

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

  it("gives a detail one canonical URL for both its id forms, with language alternates", async () => {
    // A news item the demo site has in English too.
    const id = demo.translations?.en.news?.[0]?.id as number;
    for (const url of [`/portal/message/news/${id}`, `/portal/message/news?id=${id}`]) {
      const res = await request(site.origin).get(url).set("Host", "evil.example").set("X-Forwarded-Host", "evil.example");
      expect(res.status).toBe(200);
      const canonical = `${ORIGIN}/portal/message/news/${id}`;
      expect(linkHref(res.text, 'rel="canonical"'), url).toBe(canonical);
      expect(linkHref(res.text, 'rel="alternate" hreflang="zh-CN"')).toBe(canonical);
      expect(linkHref(res.text, 'rel="alternate" hreflang="en"')).toBe(`${ORIGIN}/portal/en/message/news/${id}`);
      expect(linkHref(res.text, 'rel="alternate" hreflang="x-default"')).toBe(canonical);
      expect(headOf(res.text)).toContain(`<meta property="og:url" content="${canonical}">`);
      expect(res.text).not.toContain("evil.example");
    }
    // Each language version is its own canonical URL, as hreflang alternates must be.
    const en = await request(site.origin).get(`/portal/en/message/news?id=${id}`);
    expect(linkHref(en.text, 'rel="canonical"')).toBe(`${ORIGIN}/portal/en/message/news/${id}`);
    expect(headOf(en.text)).toContain('<meta property="og:locale" content="en_US">');
  });

  it("drops list defaults from the canonical URL but keeps a later page, another size and the job filters", async () => {
    const cases: [string, string][] = [
      ["/portal/message/news/list.html", "/portal/message/news/list.html"],
      ["/portal/message/news/list.html?page=1&size=20", "/portal/message/news/list.html"],
      ["/portal/message/notice/list.html?size=20&page=2", "/portal/message/notice/list.html?page=2"],
      ["/portal/message/news/list.html?page=2&size=50&utm_source=x", "/portal/message/news/list.html?page=2&size=50"],
      ["/portal/message/news/list.html?page=abc&size=7", "/portal/message/news/list.html"],
      ["/portal/job/society/index.html?jobAddrIds=2&jobTypeIds=3,1&page=1", "/portal/job/society/index.html?jobTypeIds=1,3&jobAddrIds=2"],
      ["/portal/job/school/index.html?jobTypeIds=1&jobTypeIds=2&size=10", "/portal/job/school/index.html?jobTypeIds=1,2&size=10"],
      ["/portal/about/index.html?from=menu", "/portal/about/index.html"],
    ];
    for (const [url, canonical] of cases) {
      const res = await request(site.origin).get(url);
      expect(res.status, url).toBe(200);
      expect(linkHref(res.text, 'rel="canonical"'), url).toBe(ORIGIN + canonical);
    }
  });

  it("announces the feeds from the list pages", async () => {
    const news = await request(site.origin).get("/portal/message/news/list.html");
    expect(headOf(news.text)).toContain(
      '<link rel="alternate" type="application/rss+xml" title="青禾数智 - 新闻动态" href="/portal/message/news/rss.xml">',
    );
    const notices = await request(site.origin).get("/portal/message/notice/list.html");
    expect(headOf(notices.text)).toContain('href="/portal/message/notice/rss.xml"');
    const about = await request(site.origin).get("/portal/about/index.html");
    expect(headOf(about.text)).not.toContain("application/rss+xml");
  });

  it("describes every page for sharing with Open Graph and Twitter card metas", async () => {
    const news = demo.news[0] as { id: number; dateTime: string; brief?: string; img?: string };
    const res = await request(site.origin).get(`/portal/message/news/${news.id}`);
    const head = headOf(res.text);
    expect(head).toContain('<meta property="og:type" content="article">');
    expect(head).toContain('<meta property="og:site_name" content="青禾数智">');
    expect(head).toContain('<meta property="og:locale" content="zh_CN">');
    expect(head).toContain(`<meta property="og:image" content="${ORIGIN}${news.img}">`);
    expect(head).toContain(`<meta name="description" content="${news.brief}">`);
    expect(head).toContain(`<meta property="og:description" content="${news.brief}">`);
    expect(head).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(head).toMatch(/<meta property="og:title" content="青禾数智 - [^"]+">/);

    const home = headOf((await request(site.origin).get("/portal/index.html")).text);
    expect(home).toContain('<meta property="og:type" content="website">');
    expect(home).toMatch(new RegExp(`<meta property="og:image" content="${ORIGIN}/portal/media/[^"]+">`));
  });

  it("adds JSON-LD of the right type to each kind of page", async () => {
    const job = demo.jobs.find((j) => j.type === 2 && j.name.includes("实习")) as DemoSite["jobs"][number];
    const cases: [string, string[]][] = [
      // Every page also says what it is and the language of its content (WebPage, inLanguage).
      ["/portal/index.html", ["Organization", "WebPage"]],
      [`/portal/message/news/${demo.news[0]?.id}`, ["NewsArticle", "BreadcrumbList", "WebPage"]],
      [`/portal/message/notice?id=${demo.notices[0]?.id}`, ["NewsArticle", "BreadcrumbList", "WebPage"]],
      [`/portal/job/school/${job.id}`, ["JobPosting", "BreadcrumbList", "WebPage"]],
      [`/portal/product/${demo.products[0]?.id}`, ["BreadcrumbList", "WebPage"]],
      ["/portal/about/index.html", ["BreadcrumbList", "WebPage"]],
      ["/portal/job/society/index.html", ["BreadcrumbList", "WebPage"]],
    ];
    for (const [url, types] of cases) {
      const res = await request(site.origin).get(url);
      expect(res.status, url).toBe(200);
      expect(typesOf(res.text), url).toEqual(types);
      for (const block of jsonLdOf(res.text)) expect(block["@context"]).toBe("https://schema.org");
    }

    const [organization] = jsonLdOf((await request(site.origin).get("/portal/index.html")).text) as [Record<string, unknown>];
    expect(organization).toMatchObject({ name: "青禾数智", legalName: "杭州青禾数智科技有限公司", url: `${ORIGIN}/portal/index.html` });
    expect(organization.logo).toMatch(new RegExp(`^${ORIGIN}/portal/media/`));
    expect(organization.email).toBeTruthy();
    expect(organization.telephone).toBeTruthy();
    expect((organization.address as unknown[]).length).toBeGreaterThan(0);

    const news = demo.news[0] as { id: number; dateTime: string };
    const [article, crumbs] = jsonLdOf((await request(site.origin).get(`/portal/message/news?id=${news.id}`)).text) as [
      Record<string, unknown>,
      Record<string, unknown>,
    ];
    expect(article.datePublished).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/);
    expect(article.mainEntityOfPage).toEqual({ "@type": "WebPage", "@id": `${ORIGIN}/portal/message/news/${news.id}` });
    expect((article.publisher as Record<string, unknown>)["@type"]).toBe("Organization");
    expect((crumbs.itemListElement as { name: string; position: number; item: string }[]).map((c) => [c.position, c.item])).toEqual([
      [1, `${ORIGIN}/portal/index.html`],
      [2, `${ORIGIN}/portal/message/news/list.html`],
      [3, `${ORIGIN}/portal/message/news/${news.id}`],
    ]);

    const [posting] = jsonLdOf((await request(site.origin).get(`/portal/job/school/${job.id}`)).text) as Record<string, unknown>[];
    expect(posting).toMatchObject({
      title: job.name,
      employmentType: "INTERN",
      hiringOrganization: { "@type": "Organization", name: "青禾数智" },
      jobLocation: {
        "@type": "Place",
        address: { addressLocality: demo.jobAddrs.find((a) => a.id === job.jobAddrId)?.name, addressCountry: "CN" },
      },
    });
    expect(posting).not.toHaveProperty("datePosted");
    const society = demo.jobs.find((j) => j.type === 1) as DemoSite["jobs"][number];
    const [fullTime] = jsonLdOf((await request(site.origin).get(`/portal/job/society?id=${society.id}`)).text) as Record<string, unknown>[];
    expect(fullTime?.employmentType).toBe("FULL_TIME");
  });

  it("marks a not-found page noindex, and only that", async () => {
    for (const url of ["/portal/message/news/999999", "/portal/message/notice?id=abc", "/portal/job/society/0"]) {
      const res = await request(site.origin).get(url);
      expect(res.status, url).toBe(404);
      expect(headOf(res.text), url).toContain('<meta name="robots" content="noindex">');
      expect(headOf(res.text), url).not.toContain('rel="canonical"');
      expect(jsonLdOf(res.text), url).toEqual([]);
    }
    for (const url of ["/portal/index.html", `/portal/message/news/${demo.news[0]?.id}`, "/portal/message/news/list.html"]) {
      const res = await request(site.origin).get(url);
      expect(res.status, url).toBe(200);
      expect(res.text, url).not.toContain('name="robots"');
    }
  });
});

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
