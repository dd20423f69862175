/**
 * The home page as the built site serves it, against a stand-in upstream with known
 * content and against the embedded demo site: its title and structured data, every
 * section's content in the HTML, with the caps, column rule, partner rows and both layouts.
 */
import { readFile } from "node:fs/promises";
import type { Document, Element } from "domhandler";
import { DomUtils, parseDocument } from "htmlparser2";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { DEMO_SITE_FILE } from "../../server/project-root.ts";
import { STATE_ELEMENT_ID } from "../../shared/page-state.ts";
import { startBuiltSite } from "../support/built-site.ts";
import { sourceOf } from "../support/image-markup.ts";
import { startStandInUpstream } from "../support/stand-in-upstream.ts";

const SLIDES = Array.from({ length: 12 }, (_, i) => ({
  title: `幻灯片${i + 1}号`,
  url: `https://slides.example/${i + 1}`,
  img: `/portal/media/slide-${i + 1}.svg`,
}));
const PRODUCTS = Array.from({ length: 5 }, (_, i) => ({
  id: 11 + i,
  name: `产品${i + 1}号`,
  propImg: `/portal/media/p-${i + 1}.svg`,
  type: 1,
}));
const SERVICES = Array.from({ length: 8 }, (_, i) => ({ id: 21 + i, name: `方案${i + 1}号`, type: 1 }));
const paged = (items: unknown[]) => ({ pageDataList: items, totalCount: items.length, totalPageCount: 1 });
const NEWS = Array.from({ length: 6 }, (_, i) => ({
  id: 31 + i,
  title: `新闻${i + 1}号`,
  brief: "",
  img: "",
  dateTime: `2024030${i + 1}093000`,
}));
const NOTICES = Array.from({ length: 5 }, (_, i) => ({ id: 41 + i, title: `公告${i + 1}号`, brief: "", img: "", dateTime: `2024041${i}` }));
const PARTNERS = Array.from({ length: 23 }, (_, i) => ({
  logo: `/portal/media/partner-${i + 1}.svg`,
  url: `https://partner${i + 1}.example/`,
}));
const MARKUP = '<section class="intro"><h2>定制首页内容</h2><p>欢迎访问</p></section>';
const SCRIPT = "useEval|container.dataset.ran = String(Number(container.dataset.ran || 0) + 1); // 脚本不应出现在页面里";

function siteRoutes(themePortal: string, html: string): Record<string, unknown> {
  return {
    "/api/portal/sys/syscfg": { themePortal, metaKeywords: "", metaDescription: "", copyright: "©", record: "", edi: "" },
    "/api/portal/sys/sysauthor": { name: "测试公司", fname: "测试科技有限公司", logo: "", phone: "", email: "" },
    "/api/portal/sys/menu/list": [],
    "/api/portal/message/indexslide/list": SLIDES,
    "/api/portal/product/product/list": PRODUCTS,
    "/api/portal/service/service/list": SERVICES,
    "/api/portal/message/news/list": paged(NEWS),
    "/api/portal/message/notice/list": paged(NOTICES),
    "/api/portal/crm/partner/list": PARTNERS,
    "/api/portal/sys/indexhtml": { html },
  };
}

interface Rendered {
  status: number;
  text: string;
  doc: Document;
}

/** The home page of a fresh app (its own cache) over a stand-in upstream with these routes. */
async function renderHome(
  routes: Record<string, unknown>,
  env: Record<string, string> = {},
  url = "/portal/index.html",
): Promise<Rendered> {
  const upstream = await startStandInUpstream(routes);
  const site = await startBuiltSite({ API_BASE_URL: upstream.url, ...env });
  try {
    const res = await request(site.origin).get(url);
    return { status: res.status, text: res.text, doc: parseDocument(res.text) };
  } finally {
    await site.close();
    await upstream.close();
  }
}

const hasClass = (name: string) => (el: Element) => (el.attribs.class ?? "").split(/\s+/).includes(name);
const all = (root: Document | Element, test: (el: Element) => boolean) => DomUtils.findAll(test, [root]);
function one(root: Document | Element, test: (el: Element) => boolean): Element {
  const found = DomUtils.findOne(test, [root]);
  if (!found) throw new Error("element not found");
  return found;
}
const byId = (root: Document | Element, id: string) => one(root, (el) => el.attribs.id === id);
const text = (el: Element) => DomUtils.textContent(el).trim();
const tag = (name: string) => (el: Element) => el.name === name;

/** The JSON-LD blocks of the page's head, parsed. */
const structuredData = (doc: Document) =>
  all(doc, (el) => el.name === "script" && el.attribs.type === "application/ld+json").map(
    (el) => JSON.parse(DomUtils.textContent(el)) as { "@type"?: string; name?: string; legalName?: string },
  );

describe("home page, default layout (themePortal 1,1)", () => {
  it("is titled with the company's name and full name, and describes the company as an Organization", async () => {
    const { status, doc } = await renderHome(siteRoutes("1,1", MARKUP));
    expect(status).toBe(200);
    expect(text(one(doc, tag("title")))).toBe("测试公司 - 测试科技有限公司");
    const organization = structuredData(doc).find((data) => data["@type"] === "Organization");
    expect(organization).toMatchObject({ name: "测试公司", legalName: "测试科技有限公司" });
  });

  it("renders the carousel's first 10 slides, the first one complete and the others lazy", async () => {
    const { status, doc } = await renderHome(siteRoutes("1,1", MARKUP));
    expect(status).toBe(200);
    const carousel = one(doc, hasClass("carousel"));
    expect(carousel.attribs["aria-roledescription"]).toBe("轮播");
    expect(carousel.attribs["aria-label"]).toBeTruthy();
    const slides = all(carousel, hasClass("carousel-slide"));
    expect(slides).toHaveLength(10);
    expect(slides.map((s) => s.attribs.role)).toEqual(Array(10).fill("group"));
    expect(slides[0]?.attribs["aria-label"]).toBe("第 1 张，共 10 张");
    expect(slides[9]?.attribs["aria-label"]).toBe("第 10 张，共 10 张");

    const images = all(carousel, tag("img"));
    // Each headline is text over its picture, which then has no alt of its own.
    expect(images.map((img) => img.attribs.alt)).toEqual(SLIDES.slice(0, 10).map(() => ""));
    expect(all(carousel, hasClass("carousel-title")).map(text)).toEqual(SLIDES.slice(0, 10).map((s) => s.title));
    const [first, ...rest] = images;
    expect(first?.attribs).toMatchObject({ width: "1920", height: "720", sizes: "100vw", fetchpriority: "high" });
    expect(images.map((img) => sourceOf(img.attribs.src))).toEqual(SLIDES.slice(0, 10).map((s) => s.img));
    // From a phone's width to a 2x desktop's, through the image endpoint.
    expect(first?.attribs.srcset?.split(", ").map((c) => c.split(" ")[1])).toEqual(["384w", "640w", "828w", "1080w", "1280w", "1920w"]);
    expect(first?.attribs.srcset?.split(", ").every((c) => sourceOf(c.split(" ")[0]) === SLIDES[0]?.img)).toBe(true);
    expect(first?.attribs.loading).toBeUndefined();
    for (const img of rest) expect(img.attribs).toMatchObject({ loading: "lazy", width: "1920", height: "720" });

    const links = all(carousel, (el) => el.name === "a");
    expect(links.map((a) => a.attribs.href)).toEqual(SLIDES.slice(0, 10).map((s) => s.url));
    for (const a of links) expect(a.attribs).toMatchObject({ target: "_blank", rel: "noopener noreferrer" });
    expect(text(carousel)).not.toContain("幻灯片11号");

    // Labelled, keyboard-operable controls: pause, previous, next and one dot per slide.
    const buttons = all(carousel, tag("button"));
    expect(buttons.every((b) => b.attribs.type === "button" && b.attribs["aria-label"])).toBe(true);
    expect(all(carousel, hasClass("carousel-dot"))).toHaveLength(10);
    expect(buttons.map((b) => b.attribs["aria-label"])).toEqual(
      expect.arrayContaining(["暂停自动播放", "上一张", "下一张", "转到第 1 张"]),
    );
  });

  it("embeds only the fields the grids show of products and services, not their descriptions", async () => {
    const described = (items: object[]) => items.map((item) => ({ ...item, detail: `<p>${"很长的介绍".repeat(200)}</p>` }));
    const routes = siteRoutes("1,1", MARKUP);
    const { text: html, doc } = await renderHome({
      ...routes,
      "/api/portal/product/product/list": described(PRODUCTS),
      "/api/portal/service/service/list": described(SERVICES),
    });
    expect(html).not.toContain("很长的介绍");
    const state = JSON.parse(text(byId(doc, STATE_ELEMENT_ID)));
    expect(state.fallback["/product/product/list"]).toEqual(PRODUCTS.map(({ id, name, propImg, type }) => ({ id, name, propImg, type })));
    expect(state.fallback["/service/service/list"]).toEqual(SERVICES.map(({ id, name, type }) => ({ id, name, type })));
    expect(all(one(byId(doc, "product-list"), hasClass("home-grid")), tag("a")).map(text)).toEqual(PRODUCTS.map((p) => p.name));
  });

  it("renders products (3 columns for 5) and services (4 columns for 8) linking to their pages", async () => {
    const { doc } = await renderHome(siteRoutes("1,1", MARKUP));
    const products = byId(doc, "product-list");
    expect(text(one(products, tag("h2")))).toBe("产品中心");
    const productGrid = one(products, hasClass("home-grid"));
    expect(productGrid.attribs.class).toContain("home-grid-3");
    const productLinks = all(productGrid, tag("a"));
    expect(productLinks.map((a) => a.attribs.href)).toEqual(PRODUCTS.map((p) => `/portal/product/${p.id}`));
    expect(productLinks.map(text)).toEqual(PRODUCTS.map((p) => p.name));
    for (const [i, img] of all(productGrid, tag("img")).entries()) {
      expect(img.attribs).toMatchObject({ loading: "lazy", width: "800", height: "600" });
      expect(sourceOf(img.attribs.src)).toBe(PRODUCTS[i]?.propImg);
    }

    const services = byId(doc, "service-list");
    expect(text(one(services, tag("h2")))).toBe("解决方案");
    const serviceGrid = one(services, hasClass("home-grid"));
    expect(serviceGrid.attribs.class).toContain("home-grid-4");
    expect(all(serviceGrid, tag("a")).map((a) => a.attribs.href)).toEqual(SERVICES.map((s) => `/portal/service/${s.id}`));
    expect(all(serviceGrid, tag("a")).map(text)).toEqual(SERVICES.map((s) => s.name));
  });

  it("renders 4 news and 4 notices with their dates, links and a link to each list", async () => {
    const { doc } = await renderHome(siteRoutes("1,1", MARKUP));
    const messages = byId(doc, "message-list");
    const [news, notices] = all(messages, hasClass("home-messages"));
    if (!news || !notices) throw new Error("two message columns expected");
    expect(text(one(news, tag("h2")))).toBe("新闻动态");
    expect(text(one(notices, tag("h2")))).toBe("通知公告");

    const newsItems = all(news, tag("li"));
    expect(newsItems).toHaveLength(4);
    expect(newsItems.map((li) => one(li, tag("a")).attribs.href)).toEqual(NEWS.slice(0, 4).map((n) => `/portal/message/news/${n.id}`));
    expect(newsItems.map((li) => text(one(li, tag("a"))))).toEqual(NEWS.slice(0, 4).map((n) => n.title));
    expect(text(one(newsItems[0] as Element, tag("time")))).toBe("2024-03-01 09:30");

    const noticeItems = all(notices, tag("li"));
    expect(noticeItems).toHaveLength(4);
    expect(noticeItems.map((li) => one(li, tag("a")).attribs.href)).toEqual(
      NOTICES.slice(0, 4).map((n) => `/portal/message/notice/${n.id}`),
    );
    expect(text(one(noticeItems[1] as Element, tag("time")))).toBe("2024-04-11");

    const more = all(messages, hasClass("home-more"));
    expect(more.map((a) => [a.attribs.href, text(a)])).toEqual([
      ["/portal/message/news/list.html", "更多"],
      ["/portal/message/notice/list.html", "更多"],
    ]);
  });

  it("renders the 23 partner logos in rows of 10 and 13, still on the server, each linking out in a new tab", async () => {
    const { doc } = await renderHome(siteRoutes("1,1", MARKUP));
    const section = one(doc, hasClass("home-partners"));
    expect(text(one(section, tag("h2")))).toBe("合作伙伴");
    const rows = all(section, hasClass("partner-row"));
    expect(rows.map((row) => all(row, tag("img")).length)).toEqual([10, 13]);
    // Alternate rows take the 20 s and 16 s durations; nothing moves before the browser measures.
    expect(rows.map((row) => hasClass("partner-row-fast")(row))).toEqual([false, true]);
    expect(rows.some(hasClass("is-moving"))).toBe(false);
    const links = all(section, tag("a"));
    expect(links.map((a) => a.attribs.href)).toEqual(PARTNERS.map((p) => p.url));
    for (const a of links) expect(a.attribs).toMatchObject({ target: "_blank", rel: "noopener noreferrer" });
    for (const img of all(section, tag("img"))) {
      expect(img.attribs.alt).toBeTruthy();
      expect(img.attribs).toMatchObject({ loading: "lazy", width: "160", height: "64" });
    }
  });

  it("keeps the sections inside #home-content and shows no home html", async () => {
    const { doc, text: html } = await renderHome(siteRoutes("1,1", MARKUP));
    const content = byId(doc, "home-content");
    for (const id of ["product-list", "service-list", "message-list"]) expect(byId(content, id)).toBeTruthy();
    expect(DomUtils.findOne((el) => el.attribs.id === "home-custom", [doc])).toBeNull();
    expect(html).not.toContain("欢迎访问</p></section></div>");
    expect(DomUtils.textContent(byId(doc, "root"))).not.toContain("定制首页内容");
  });

  it("treats a missing or malformed layout as the default one", async () => {
    for (const themePortal of ["", "1", "2,3", "x,y"]) {
      const { doc } = await renderHome(siteRoutes(themePortal, MARKUP));
      expect(
        DomUtils.findOne((el) => el.attribs.id === "home-custom", [doc]),
        themePortal,
      ).toBeNull();
      expect(byId(doc, "product-list")).toBeTruthy();
    }
  });

  it("writes the interface strings in English at its English address", async () => {
    const { doc } = await renderHome(siteRoutes("1,1", MARKUP), {}, "/portal/en/index.html");
    const headings = all(byId(doc, "home-content"), tag("h2")).map(text);
    expect(headings).toEqual(["Products", "Services", "News", "Notices", "Partners"]);
    expect(one(doc, hasClass("carousel")).attribs["aria-roledescription"]).toBe("carousel");
    expect(all(doc, hasClass("carousel-slide"))[2]?.attribs["aria-label"]).toBe("3 of 10");
    expect(all(doc, hasClass("home-more")).map(text)).toEqual(["More", "More"]);
  });
});

describe("home page, custom layout (themePortal 1,2)", () => {
  it("renders the home markup inside #home-custom, right after #home-content", async () => {
    const { doc } = await renderHome(siteRoutes("1,2", MARKUP));
    const content = byId(doc, "home-content");
    const custom = DomUtils.nextElementSibling(content);
    expect(custom?.attribs.id).toBe("home-custom");
    expect(text(custom as Element)).toContain("定制首页内容");
    expect(text(one(custom as Element, tag("h2")))).toBe("定制首页内容");
    // The carousel comes first; the custom layout replaces the default sections.
    expect(one(doc, hasClass("carousel"))).toBeTruthy();
    expect(content.children).toHaveLength(0);
    expect(all(doc, (el) => el.attribs.id === "product-list")).toEqual([]);
  });

  it("never renders a useEval| value as markup", async () => {
    for (const env of [{}, { PORTAL_HOME_SCRIPT: "off" }] as Record<string, string>[]) {
      const { status, doc } = await renderHome(siteRoutes("1,2", SCRIPT), env);
      expect(status).toBe(200);
      const custom = byId(doc, "home-custom");
      expect(custom.children).toHaveLength(0);
      expect(DomUtils.textContent(byId(doc, "root"))).not.toContain("dataset.ran");
      expect(DomUtils.textContent(byId(doc, "root"))).not.toContain("useEval");
      // No script the server sends runs inline (only data blocks and the app's entry): the home script waits for hydration.
      const inline = all(doc, tag("script")).filter((s) => !s.attribs.src && !/json$/.test(s.attribs.type ?? ""));
      expect(inline).toEqual([]);
    }
  });
});

describe("home page with missing, empty or failing data", () => {
  it("renders without crashing when every list is empty or oddly shaped", async () => {
    const { status, doc } = await renderHome({
      "/api/portal/sys/syscfg": {},
      "/api/portal/sys/sysauthor": {},
      "/api/portal/sys/menu/list": [],
      "/api/portal/message/indexslide/list": [{ title: "无图无链接" }, null],
      "/api/portal/product/product/list": {},
      "/api/portal/service/service/list": [{ name: "无编号方案" }],
      "/api/portal/message/news/list": {},
      "/api/portal/message/notice/list": paged([{ id: 1 }]),
      "/api/portal/crm/partner/list": [{}],
      "/api/portal/sys/indexhtml": {},
    });
    expect(status).toBe(200);
    expect(text(one(doc, hasClass("carousel")))).toContain("无图无链接");
    expect(text(byId(doc, "product-list"))).toContain("暂无内容");
    expect(text(byId(doc, "service-list"))).toContain("无编号方案");
    expect(all(byId(doc, "message-list"), hasClass("home-empty"))).toHaveLength(1);
    expect(all(one(doc, hasClass("home-partners")), hasClass("partner"))).toHaveLength(1);
  });

  it("renders no carousel for no slides, and a section's error state when only its call fails", async () => {
    const routes = siteRoutes("1,1", MARKUP);
    routes["/api/portal/message/indexslide/list"] = [];
    routes["/api/portal/crm/partner/list"] = () => ({ status: 500, body: { code: 500, msg: "down" } });
    const { status, doc } = await renderHome(routes);
    expect(status).toBe(502);
    expect(DomUtils.findOne(hasClass("carousel"), [doc])).toBeNull();
    expect(one(one(doc, hasClass("home-partners")), (el) => el.attribs.role === "alert")).toBeTruthy();
    expect(all(byId(doc, "product-list"), tag("a"))).toHaveLength(5);
  });
});

describe("home page links from content", () => {
  const UNSAFE = ["javascript:alert(1)", " JavaScript:alert(1)", "java\tscript:alert(1)", "data:text/html,<p>x</p>", "mailto:a@b.example"];
  const SAFE = ["https://ok.example/a", "http://ok.example/b", "/portal/about/index.html", "news/1.html", "//cdn.example/x"];

  it("renders a slide or partner whose url is not http(s) or relative as plain content, with no link at all", async () => {
    const routes = siteRoutes("1,1", MARKUP);
    routes["/api/portal/message/indexslide/list"] = [...UNSAFE, ...SAFE].map((url, i) => ({
      title: `链接${i + 1}`,
      url,
      img: `/m/s${i}.svg`,
    }));
    routes["/api/portal/crm/partner/list"] = [...UNSAFE, ...SAFE].map((url, i) => ({ logo: `/m/p${i}.svg`, url }));
    const { status, text: html, doc } = await renderHome(routes);
    expect(status).toBe(200);

    const slides = all(one(doc, hasClass("carousel")), hasClass("carousel-slide"));
    expect(slides.map((slide) => all(slide, tag("a")).map((a) => a.attribs.href))).toEqual([
      ...UNSAFE.map(() => []),
      ...SAFE.map((url) => [url]),
    ]);
    // The unlinked slide still shows its picture, and its headline as text (the picture then needs no alt).
    expect(all(slides[0] as Element, tag("img")).map((img) => img.attribs.alt)).toEqual([""]);
    expect(text(one(slides[0] as Element, hasClass("carousel-title")))).toBe("链接1");

    const partners = all(one(doc, hasClass("home-partners")), hasClass("partner"));
    expect(partners.map((partner) => all(partner, tag("a")).map((a) => a.attribs.href))).toEqual([
      ...UNSAFE.map(() => []),
      ...SAFE.map((url) => [url]),
    ]);
    expect(all(partners[0] as Element, tag("img"))).toHaveLength(1);

    const root = byId(doc, "root");
    expect(all(root, (el) => /^\s*(javascript|data|vbscript|mailto):/i.test(el.attribs.href ?? ""))).toEqual([]);
    expect(html).not.toContain("React has blocked");
    // The slides' links are the keyboard's way into the scrolling carousel.
    expect(one(doc, hasClass("carousel-viewport")).attribs.tabindex).toBeUndefined();
  });

  it("makes the carousel's scrolling box itself focusable when no slide has a link", async () => {
    const routes = siteRoutes("1,1", MARKUP);
    routes["/api/portal/message/indexslide/list"] = UNSAFE.map((url, i) => ({ title: `链接${i + 1}`, url, img: `/m/s${i}.svg` }));
    const { doc } = await renderHome(routes);
    expect(all(one(doc, hasClass("carousel")), tag("a"))).toEqual([]);
    expect(one(doc, hasClass("carousel-viewport")).attribs.tabindex).toBe("0");
  });
});

describe("home page of the embedded demo site", () => {
  it("renders the demo content: 10 slides, 8 products in 4 columns, news, notices and partner rows", async () => {
    const site = await startBuiltSite();
    try {
      const demo = JSON.parse(await readFile(DEMO_SITE_FILE, "utf8"));
      const res = await request(site.origin).get("/portal/index.html");
      expect(res.status).toBe(200);
      const doc = parseDocument(res.text);

      const slides = all(one(doc, hasClass("carousel")), hasClass("carousel-slide"));
      expect(slides).toHaveLength(Math.min(10, demo.slides.length));
      // Each headline is text over its picture, readable at every width.
      expect(slides.map((slide) => text(one(slide, hasClass("carousel-title"))))).toEqual(
        demo.slides.slice(0, 10).map((s: { title: string }) => s.title),
      );
      expect(all(slides[0] as Element, tag("img"))[0]?.attribs.alt).toBe("");

      const productGrid = one(byId(doc, "product-list"), hasClass("home-grid"));
      expect(productGrid.attribs.class).toContain(demo.products.length === 5 ? "home-grid-3" : "home-grid-4");
      expect(all(productGrid, tag("a")).map(text)).toEqual(demo.products.map((p: { name: string }) => p.name));

      const messages = text(byId(doc, "message-list"));
      expect(all(byId(doc, "message-list"), tag("li"))).toHaveLength(8);
      const newest = [...demo.news].sort((a: { dateTime: string }, b: { dateTime: string }) => b.dateTime.localeCompare(a.dateTime))[0];
      expect(messages).toContain(newest.title);

      const rows = all(one(doc, hasClass("home-partners")), hasClass("partner-row"));
      const partnerCount = Math.min(50, demo.partners.length);
      expect(rows.map((row) => all(row, tag("img")).length).reduce((a, b) => a + b, 0)).toBe(partnerCount);
      expect(rows.every((row) => all(row, tag("img")).length >= 7 || rows.length === 1)).toBe(true);
    } finally {
      await site.close();
    }
  });
});
