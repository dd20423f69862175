/**
 * The search metadata in every page's server HTML on the demo site as the built `npm start`
 * serves it: canonical URLs and language alternates, feed links, Open Graph and Twitter card
 * metas, JSON-LD, and noindex on a not-found page.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { type DemoSite, demo, demoSiteForTheSuite, ORIGIN, site } from "../support/seo-demo-site.ts";

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

describe("search engines on the demo site", () => {
  demoSiteForTheSuite();

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
