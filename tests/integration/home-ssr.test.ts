/**
 * The home page as the built site serves it in its default layout, against a stand-in
 * upstream with known content: its title and structured data, every section's content in the
 * HTML, with the caps, column rule and partner rows.
 */
import type { Element } from "domhandler";
import { DomUtils } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { STATE_ELEMENT_ID } from "../../shared/page-state.ts";
import {
  all,
  byId,
  hasClass,
  MARKUP,
  NEWS,
  NOTICES,
  one,
  PARTNERS,
  PRODUCTS,
  renderHome,
  SERVICES,
  SLIDES,
  siteRoutes,
  structuredData,
  tag,
  text,
} from "../support/home-render.ts";
import { sourceOf } from "../support/image-markup.ts";

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
