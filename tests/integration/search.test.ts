/**
 * Site search on the built site (docs/behaviour.md#search): /api/portal/search and
 * /portal/search.html over the demo content, the header's form on every page, hostile
 * input, the miss budget and metrics (search-upstream.test.ts: over an upstream).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARK_END, MARK_START } from "../../shared/search.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { api, get, hitsOf, page, until } from "../support/search-calls.ts";

describe("search on the demo site", () => {
  let site: BuiltSite;
  beforeAll(async () => {
    site = await startBuiltSite({ MISS_RATE_PER_MIN: "0", METRICS_PORT: "0" });
    await until(
      () => get(site, api("学友")),
      (res) => res.status === 200 && hitsOf(res.text).length > 0,
      "the index is built",
    );
  });
  afterAll(() => site?.close());

  it("answers in the usual envelope: type, id, marked title and snippet, the detail URL and the date, counts per type", async () => {
    const res = await get(site, api("學友"));
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text);
    expect(body).toMatchObject({ code: 0, msg: "ok", data: { totalCount: 1, totalPageCount: 1 } });
    expect(body.data.facets).toEqual({ news: 1, notice: 0, product: 0, service: 0, job: 0 });
    const [hit] = body.data.pageDataList;
    expect(hit).toMatchObject({ type: "news", id: 21, url: "/portal/message/news/21", dateTime: "20251225143427" });
    expect(hit.snippet).toContain(`張${MARK_START}學友${MARK_END}先生`);
    expect(hit.title).not.toContain(MARK_START);
    // Kept briefly: the same search again is answered from the cache.
    expect((await get(site, api("學友"))).headers.get("x-cache")).toBe("HIT");
  });

  it("finds what section 10 says: words inside words, Traditional, prefixes and mixed scripts", async () => {
    const first = async (q: string) => hitsOf((await get(site, api(q))).text)[0];
    expect(await first("简单")).toMatchObject({ type: "product", id: 2 });
    expect(await first("待处理")).toMatchObject({ type: "product", id: 7 });
    expect(await first("銀行")).toMatchObject({ type: "news", id: 30 });
    expect(await first("robo")).toMatchObject({
      type: "product",
      id: 3,
      title: expect.stringContaining(`${MARK_START}Robotics${MARK_END}`),
    });
    expect(await first("Java安全")).toMatchObject({ type: "job", id: 1, url: "/portal/job/society/1" });
  });

  it("narrows to a type and pages, with the counts of every type", async () => {
    const all = JSON.parse((await get(site, api("公司", "&pageMaxCount=5"))).text).data;
    const news = JSON.parse((await get(site, api("公司", "&type=news&pageIndex=1&pageMaxCount=5"))).text).data;
    expect(news.facets).toEqual(all.facets);
    expect(news.totalCount).toBe(all.facets.news);
    expect(news.pageDataList).toHaveLength(5);
    expect(news.pageDataList.every((hit: { type: string }) => hit.type === "news")).toBe(true);
  });

  it("refuses bad input with a 400 and never a 500", async () => {
    const refused = [
      api("a".repeat(101)),
      "/api/portal/search?q=a&q=b",
      api("x", "&type=blog"),
      api("x", "&pageMaxCount=101"),
      api("x", "&pageIndex=-1"),
    ];
    for (const target of refused) {
      const res = await get(site, target);
      expect(res.status, target).toBe(400);
      expect(JSON.parse(res.text)).toMatchObject({ code: 400, data: null });
    }
    // 100 characters (Chinese counted as characters) is allowed.
    expect((await get(site, api("安".repeat(100)))).status).toBe(200);
    for (const target of ["/api/portal/search?q[a]=b", "/api/portal/search?q=", "/api/portal/search?q=%20%20", api("%26type=news&q=x")]) {
      const res = await get(site, target);
      expect(res.status, target).toBe(200);
      expect(JSON.parse(res.text).data.totalCount, target).toBe(0);
    }
    expect((await fetch(`${site.origin}/api/portal/search?q=x`, { method: "POST" })).status).toBe(405);
  });

  it("renders the results page on the server: a search landmark, a labelled field, a live count, facets as links, results as a list with <mark>", async () => {
    const res = await get(site, page("Java 安全"));
    expect(res.status).toBe(200);
    const main = res.text.slice(res.text.indexOf('<main id="main-content"'));
    expect(main).toMatch(/<form role="search"[^>]*action="\/portal\/search\.html"/);
    expect(main).toMatch(/<label for="([^"]+)">[^<]+<\/label><div class="search-form-row"><input id="\1"[^>]*name="q" value="Java 安全"/);
    expect(main).toMatch(/<p class="search-count" role="status" aria-live="polite">“Java 安全”共找到 1 条结果<\/p>/);
    expect(main).toContain('href="/portal/search.html?q=Java+%E5%AE%89%E5%85%A8&amp;type=job">职位');
    expect(main).toMatch(
      /<ol class="search-results"[^>]*><li class="search-hit"><article><p class="search-hit-type">职位<\/p><h2 class="search-hit-title"><a href="\/portal\/job\/society\/1">高级<mark>Java<\/mark>后端工程师<\/a>/,
    );
    expect(main).toContain("<mark>安全</mark>管理器");
    expect(res.text).toContain('<meta name="robots" content="noindex">');
  });

  it("shows an empty or blank query as the page with no results and no error, and refuses a query over 100 characters", async () => {
    for (const target of ["/portal/search.html", "/portal/search.html?q=", "/portal/search.html?q=+++"]) {
      const res = await get(site, target);
      expect(res.status, target).toBe(200);
      expect(res.text).toContain("输入关键词");
      expect(res.text).not.toContain('class="search-results"');
    }
    expect((await get(site, page("a".repeat(101)))).status).toBe(400);
    expect((await get(site, "/portal/search.html?q=a&q=b")).status).toBe(400);
  });

  it("never renders what a visitor typed unescaped", async () => {
    const q = `"><script>alert(1)</script><img src=x onerror=alert(2)>${MARK_START}安全${MARK_END}`;
    const res = await get(site, page(q));
    expect(res.status).toBe(200);
    expect(res.text).not.toContain("<script>alert(1)");
    expect(res.text).not.toContain("<img src=x");
    expect(res.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("puts the search form in every page's header, and leaves the search page out of the sitemap", async () => {
    for (const target of ["/portal/index.html", "/portal/message/news/list.html", "/portal/product/1", "/portal/search.html?q=x"]) {
      const res = await get(site, target);
      const header = res.text.slice(res.text.indexOf('<header class="site-header"'), res.text.indexOf("</header>"));
      expect(header, target).toMatch(
        /<form role="search" aria-label="[^"]+" class="header-search" action="\/portal\/search\.html" method="get">/,
      );
      expect(header, target).toMatch(
        /<label for="header-search-q" class="visually-hidden">[^<]+<\/label><input id="header-search-q"[^>]*name="q"/,
      );
    }
    expect((await get(site, "/sitemap.xml")).text).not.toContain("search.html");
  });

  it("reports searches, searches that found nothing, and the index's size and last build", async () => {
    await get(site, api("没有这个词语", "&type=notice"));
    const metricsPort = site.logs
      .map((line) => JSON.parse(line) as { msg?: string; port?: number })
      .find((entry) => entry.msg === "internal listener")?.port;
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(text).toMatch(/portal_search_empty_queries_total\{type="notice"\} [1-9]/);
    expect(text).toMatch(/portal_search_queries_total\{type="all"\} [1-9]/);
    expect(text).toMatch(/portal_search_index_documents \d{3}/);
    expect(text).toMatch(/portal_search_index_bytes [1-9]\d+/);
    expect(text).toMatch(/portal_search_index_build_duration_seconds \d/);
    expect(text).toMatch(/portal_search_index_built_timestamp_seconds 1\d{9}/);
  });
});

describe("search in English (/portal/en/search.html, ?lang=en)", () => {
  let site: BuiltSite;
  beforeAll(async () => {
    site = await startBuiltSite({ MISS_RATE_PER_MIN: "0" });
    await until(
      () => get(site, api("Gateway", "&lang=en")),
      (res) => res.status === 200 && hitsOf(res.text).length > 0,
      "the English index is built",
    );
  });
  afterAll(() => site?.close());

  it("finds an English product name and links to its English page; the Chinese search is unchanged", async () => {
    const res = await get(site, "/portal/en/search.html?q=Gateway");
    expect(res.status).toBe(200);
    const main = res.text.slice(res.text.indexOf('<main id="main-content"'));
    expect(main).toMatch(
      /<h2 class="search-hit-title"><a href="\/portal\/en\/product\/2">Qinghe EG-500 Edge Computing <mark>Gateway<\/mark><\/a>/,
    );
    expect(main).toMatch(/<form role="search"[^>]*action="\/portal\/en\/search\.html"/);
    expect(main).toContain('href="/portal/en/search.html?q=Gateway&amp;type=product">');
    expect(res.text).toContain('<meta name="robots" content="noindex">');
    expect(res.text).not.toContain('rel="canonical"');
    // Chinese: the English name is in no Chinese content, and the Chinese name still leads to the Chinese page.
    const zh = await get(site, page("Gateway"));
    expect(zh.status).toBe(200);
    expect(zh.text).not.toContain('class="search-results"');
    expect((await get(site, page("网关"))).text).toMatch(
      /<h2 class="search-hit-title"><a href="\/portal\/product\/2">[^<]*<mark>网关<\/mark>/,
    );
  });

  it("answers /api/portal/search?lang=en from the English index with English addresses, kept apart from the Chinese answers", async () => {
    const en = hitsOf((await get(site, api("Gateway", "&lang=en"))).text);
    expect(en[0]).toMatchObject({ type: "product", id: 2, url: "/portal/en/product/2" });
    expect(hitsOf((await get(site, api("Gateway"))).text)).toEqual([]);
    // The same query in both languages: each answer its own (the language is in the key).
    const product2 = (url: string) => expect.objectContaining({ type: "product", id: 2, url });
    expect(hitsOf((await get(site, api("网关"))).text)).toContainEqual(product2("/portal/product/2"));
    expect(hitsOf((await get(site, api("EG-500", "&lang=en"))).text)).toContainEqual(product2("/portal/en/product/2"));
    expect(hitsOf((await get(site, api("EG-500"))).text)).toContainEqual(product2("/portal/product/2"));
    expect((await get(site, api("x", "&lang=fr"))).status).toBe(400);
  });

  it("indexes an untranslated item as the upstream gives it (in Chinese), linked to its English page", async () => {
    const [hit] = hitsOf((await get(site, api("學友", "&lang=en"))).text);
    expect(hit).toMatchObject({ type: "news", id: 21, url: "/portal/en/message/news/21" });
  });

  it("puts a search form posting to /portal/en/search.html in every English page's header", async () => {
    for (const target of ["/portal/en/index.html", "/portal/en/product/1", "/portal/en/search.html?q=x"]) {
      const res = await get(site, target);
      expect(res.status, target).toBe(200);
      const header = res.text.slice(res.text.indexOf('<header class="site-header"'), res.text.indexOf("</header>"));
      expect(header, target).toMatch(/<form role="search" aria-label="[^"]+" class="header-search" action="\/portal\/en\/search\.html"/);
    }
    expect((await get(site, "/portal/en/search.html?q=a&q=b")).status).toBe(400);
    expect((await get(site, `/portal/en/search.html?q=${"a".repeat(101)}`)).status).toBe(400);
  });
});

describe("search and the miss budget", () => {
  it("charges a search only when it is computed: the same search again is a hit and never refused", async () => {
    const site = await startBuiltSite({ MISS_RATE_PER_MIN: "60" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await get(site, api("融资"))).status);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const distinct: number[] = [];
      for (let i = 0; i < 20; i++) distinct.push((await get(site, api(`融资${i}`))).status);
      expect(distinct).toContain(429);
    } finally {
      await site.close();
    }
  });
});
