/**
 * The home page as the built site serves it beside the default layout: the custom layout,
 * missing, empty or failing data, links from content, and the embedded demo site.
 */
import { readFile } from "node:fs/promises";
import type { Element } from "domhandler";
import { DomUtils, parseDocument } from "htmlparser2";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { DEMO_SITE_FILE } from "../../server/project-root.ts";
import { startBuiltSite } from "../support/built-site.ts";
import { all, byId, hasClass, MARKUP, one, paged, renderHome, SCRIPT, siteRoutes, tag, text } from "../support/home-render.ts";

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
