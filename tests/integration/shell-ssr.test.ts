/**
 * The site shell's top menu as the built site renders it (no JavaScript involved): a tree
 * from the upstream's menu list and classify data.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { endpointSrc } from "../support/image-markup.ts";
import { element, elementAt, shellSiteForTheFile, site, textOf } from "../support/shell-site.ts";

/** The top-level menu items, each as its <li> markup. */
function topItems(html: string): string[] {
  const menu = element(html, 'id="site-menu"');
  const items: string[] = [];
  let at = menu.indexOf("<li", 1);
  while (at !== -1) {
    const item = elementAt(menu, at);
    items.push(item);
    at = menu.indexOf("<li", at + item.length);
  }
  return items;
}

shellSiteForTheFile();

describe("the top menu in the server HTML", () => {
  it("is a tree by pid without deleted items or the children of deleted items", async () => {
    const res = await request(site.origin).get("/portal/about/index.html");
    expect(res.status).toBe(200);
    const items = topItems(res.text);
    expect(items.map((item) => textOf(item.split('<div class="submenu')[0] ?? ""))).toEqual([
      "首页",
      "产品中心",
      "关于我们",
      "在线商城（在新窗口打开）",
      "资讯中心",
      "坏链接",
      "解决方案",
    ]);
    const about = element(res.text, 'id="submenu-3"');
    expect(about).toContain('<a href="/portal/about/member/index.html" class="submenu-link">创始团队</a>');
    const page = element(res.text, 'id="root"');
    expect(page).not.toContain("已删除");
    expect(page).not.toContain("被删菜单的子项");
  });

  it("links route paths as pages, content keys and anchors to the home anchors, and marks the current page", async () => {
    const res = await request(site.origin).get("/portal/about/index.html");
    const [home, products, about] = topItems(res.text);
    expect(home).toContain('<a href="/portal/index.html" class="menu-link">首页</a>');
    expect(products).toMatch(/<a href="\/portal\/index\.html#product-list" class="menu-link">产品中心/);
    expect(about).toMatch(/<a aria-current="page" href="\/portal\/about\/index\.html" class="menu-link">关于我们/);
    const news = element(res.text, 'id="submenu-9"');
    expect(news).toContain('<a href="/portal/index.html#message-list" class="submenu-link">最新公告</a>');
    expect(news).toContain('<a href="/portal/index.html#service-list" class="submenu-link">服务一览</a>');
  });

  it("renders a no-link item with a submenu as a button that controls it", async () => {
    const res = await request(site.origin).get("/portal/about/index.html");
    const info = topItems(res.text)[4] ?? "";
    expect(info).toMatch(/^<li class="menu-item has-submenu">/);
    expect(info).toMatch(/<button type="button" class="menu-link menu-trigger" aria-expanded="false" aria-controls="submenu-9">资讯中心/);
  });

  it("opens external items in a new window without an opener, and never links a non-web url", async () => {
    const res = await request(site.origin).get("/portal/about/index.html");
    const [, , , shop, , bad] = topItems(res.text);
    expect(shop).toMatch(/<a href="https:\/\/shop\.example\/" class="menu-link" target="_blank" rel="noopener noreferrer">在线商城/);
    expect(bad).toContain('<span class="menu-link menu-text">坏链接</span>');
    expect(element(res.text, 'id="root"')).not.toContain("javascript:");
  });

  it("builds a classify menu's entries from its call, grouped by type, linking to path?id=", async () => {
    const res = await request(site.origin).get("/portal/about/index.html");
    const products = element(res.text, 'id="submenu-2"');
    expect(products).toMatch(/^<div class="submenu" id="submenu-2">/);
    const groups = products.match(/<ul class="submenu-list submenu-group" data-type="\d+">.*?<\/ul>/g) ?? [];
    expect(groups.map(textOf)).toEqual(["视觉一体机边缘网关", "物联网平台"]);
    expect(groups[0]).toContain('<a href="/portal/product?id=31" class="submenu-link">视觉一体机</a>');
    expect(groups[0]).toContain('<a href="/portal/product?id=33" class="submenu-link">边缘网关</a>');
    expect(groups[1]).toContain('<a href="/portal/product?id=32" class="submenu-link">物联网平台</a>');
  });

  it("lays out a submenu of more than 6 entries as a grid", async () => {
    const res = await request(site.origin).get("/portal/about/index.html");
    const solutions = topItems(res.text)[6] ?? "";
    expect(solutions).toMatch(/^<li class="menu-item has-submenu has-grid">/);
    expect(solutions).toContain('<div class="submenu submenu-grid" id="submenu-13">');
    expect(solutions).toContain('<a href="/portal/service?id=47" class="submenu-link">方案7</a>');
    expect(topItems(res.text)[2]).not.toContain("submenu-grid");
  });

  it("has the landmarks, the skip link, the logo linking home and a script-free toggle for the narrow menu", async () => {
    const res = await request(site.origin).get("/portal/about/index.html");
    expect(res.text).toContain('<a class="skip-link" href="#main-content">跳到主要内容</a>');
    expect(res.text).toContain('<header class="site-header">');
    expect(res.text).toContain('<nav class="site-nav" aria-label="主导航">');
    expect(res.text).toContain('<main id="main-content" tabindex="-1">');
    expect(res.text).toContain('<footer class="site-footer" id="site-footer">');
    expect(res.text).toMatch(
      new RegExp(
        `<a href="/portal/index\\.html" class="brand has-logo"><img src="${endpointSrc("/portal/media/logo.svg")}" srcSet="[^"]+" sizes="150px" alt="" width="150" height="40" class="brand-logo"/><span class="brand-name">测试公司</span></a>`,
      ),
    );
    expect(res.text).toContain(
      '<input type="checkbox" id="site-menu-toggle" class="nav-toggle-input"/><label for="site-menu-toggle" class="nav-toggle">',
    );
  });
});
