/**
 * The site shell as the built site renders it (no JavaScript involved): the top menu from
 * the upstream's menu list and classify data, the footer from the author and site
 * config, the theme class, and the interface language from ?lang= or the cookie.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltSite, startBuiltSite, withBuiltSite } from "../support/built-site.ts";
import { endpointSrc } from "../support/image-markup.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const MENUS = [
  { id: 1, pid: 0, title: "首页", url: "/index.html", urlType: 1, delflag: 0 },
  { id: 2, pid: 0, title: "产品中心", url: "product", urlType: 1, delflag: 0 },
  { id: 3, pid: 0, title: "关于我们", url: "/about/index.html", urlType: 1, delflag: 0 },
  { id: 4, pid: 3, title: "创始团队", url: "/about/member/index.html", urlType: 1, delflag: 0 },
  { id: 5, pid: 3, title: "已删除的子菜单", url: "/about/milepost/index.html", urlType: 1, delflag: 1 },
  { id: 6, pid: 0, title: "在线商城", url: "https://shop.example/", urlType: 2, delflag: 0 },
  { id: 7, pid: 0, title: "已删除的菜单", url: "/job/school/index.html", urlType: 1, delflag: 1 },
  { id: 8, pid: 7, title: "被删菜单的子项", url: "/job/society/index.html", urlType: 1, delflag: 0 },
  { id: 9, pid: 0, title: "资讯中心", url: "", urlType: 0, delflag: 0 },
  { id: 10, pid: 9, title: "最新公告", url: "notice", urlType: 1, delflag: 0 },
  { id: 11, pid: 9, title: "服务一览", url: "#service-list", urlType: 1, delflag: 0 },
  { id: 12, pid: 0, title: "坏链接", url: "javascript:alert(1)", urlType: 2, delflag: 0 },
  { id: 13, pid: 0, title: "解决方案", url: "service", urlType: 1, delflag: 0 },
];
const PRODUCTS = [
  { id: 31, name: "视觉一体机", type: 1 },
  { id: 32, name: "物联网平台", type: 2 },
  { id: 33, name: "边缘网关", type: 1 },
];
const SOLUTIONS = Array.from({ length: 7 }, (_, i) => ({ id: 41 + i, name: `方案${i + 1}`, type: 1 + (i % 2) }));
const CLASSIFY = [
  { menuId: 2, api: "/api/portal/product/product/list", path: "/product" },
  { menuId: 13, api: "/api/portal/sys/classify/solutions", path: "/service" },
];

const FULL_AUTHOR = {
  name: "测试公司",
  fname: "测试科技有限公司",
  logo: "/portal/media/logo.svg",
  phone: "010-1234 5678",
  email: "hi@test.example",
  ...Object.fromEntries(
    [1, 2, 3, 4, 5].flatMap((n) => [
      [`qq${n}`, `1000${n}`],
      [`wx${n}`, `wechat_${n}`],
      [`addr${n}`, `地址第${n}处`],
      [`qrcode${n}`, `/portal/media/qr-${n}.svg`],
    ]),
  ),
};
const CONFIG = {
  themePortal: "1,1",
  copyright: "© 2020-2026",
  record: "京ICP备12345678号-1",
  edi: "京B2-20200001",
  policeRecord: "京公网安备11010802000001号",
};

function portalRoutes(config: object, author: object): Record<string, unknown> {
  return {
    "/api/portal/sys/syscfg": config,
    "/api/portal/sys/sysauthor": author,
    "/api/portal/sys/menu/list": MENUS,
    "/api/portal/product/product/list": PRODUCTS,
    "/api/portal/sys/classify/solutions": SOLUTIONS,
    "/api/portal/plan/company": { brief: "<p>公司介绍</p>" },
  };
}

/** The element that starts at `start` (an index of its "<tag"), up to its matching close tag. */
function elementAt(html: string, start: number): string {
  const tag = /^<([a-z0-9]+)/.exec(html.slice(start))?.[1];
  if (!tag) throw new Error(`no element at ${start}`);
  const pattern = new RegExp(`<${tag}[\\s>]|</${tag}>`, "g");
  pattern.lastIndex = start;
  let depth = 0;
  for (let match = pattern.exec(html); match; match = pattern.exec(html)) {
    depth += match[0].startsWith("</") ? -1 : 1;
    if (depth === 0) return html.slice(start, match.index + match[0].length);
  }
  throw new Error(`unclosed <${tag}>`);
}

/** The first element whose opening tag contains `marker` (e.g. 'id="site-menu"'). */
function element(html: string, marker: string): string {
  const at = html.indexOf(marker);
  if (at === -1) throw new Error(`no element with ${marker}`);
  return elementAt(html, html.lastIndexOf("<", at));
}

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

const textOf = (markup: string) => markup.replace(/<[^>]+>/g, "");

let upstream: StandInUpstream;
let site: BuiltSite;

const startSite = (env: Record<string, string> = {}) =>
  startBuiltSite({ API_BASE_URL: upstream.url, PORTAL_CLASSIFY: JSON.stringify(CLASSIFY), ...env });

/** The about page from a site of its own over another upstream. */
const aboutPageFrom = (other: StandInUpstream) =>
  withBuiltSite({ API_BASE_URL: other.url }, (fresh) => request(fresh.origin).get("/portal/about/index.html"));

beforeAll(async () => {
  upstream = await startStandInUpstream(portalRoutes(CONFIG, FULL_AUTHOR));
  site = await startSite();
});

afterAll(async () => {
  await site?.close();
  await upstream.close();
});

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

describe("the footer in the server HTML", () => {
  it("has the four link groups pointing at the home anchors and the list pages", async () => {
    const res = await request(site.origin).get("/portal/about/index.html");
    const footer = element(res.text, 'class="site-footer"');
    const groups = footer.match(/<details class="footer-group">.*?<\/details>/g) ?? [];
    expect(groups.map((group) => /<h2 class="footer-title">(.*?)<\/h2>/.exec(group)?.[1])).toEqual([
      "产品与服务",
      "新闻公告",
      "关于我们",
      "加入我们",
      "联系我们",
    ]);
    const hrefs = (markup: string | undefined) => [...(markup ?? "").matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs(groups[0])).toEqual(["/portal/index.html#product-list", "/portal/index.html#service-list"]);
    expect(hrefs(groups[1])).toEqual(["/portal/message/news/list.html", "/portal/message/notice/list.html"]);
    expect(hrefs(groups[2])).toEqual(["/portal/about/index.html", "/portal/about/member/index.html", "/portal/about/milepost/index.html"]);
    expect(hrefs(groups[3])).toEqual(["/portal/job/society/index.html", "/portal/job/school/index.html"]);
  });

  it("lists the phone, email, 5 QQ, 5 WeChat and 5 addresses, and 5 QR codes that link to their images", async () => {
    const res = await request(site.origin).get("/portal/about/index.html");
    const footer = element(res.text, 'class="site-footer"');
    expect(footer).toContain('<a href="tel:01012345678">010-1234 5678</a>');
    expect(footer).toContain('<a href="mailto:hi@test.example">hi@test.example</a>');
    for (const n of [1, 2, 3, 4, 5]) {
      expect(footer).toContain(`<span class="contact-label">QQ</span><span>1000${n}</span>`);
      expect(footer).toContain(`<span class="contact-label">微信</span><span>wechat_${n}</span>`);
      expect(footer).toContain(`<span class="contact-label">地址</span><span>地址第${n}处</span>`);
      expect(footer).toMatch(
        new RegExp(
          `<a class="qr-link" href="/portal/media/qr-${n}\\.svg" aria-label="查看二维码 ${n} 大图"><img src="${endpointSrc(`/portal/media/qr-${n}.svg`)}" srcSet="[^"]+" sizes="88px" alt="二维码 ${n}"`,
        ),
      );
    }
    expect(footer).toContain('<dialog class="qr-dialog"');
  });

  it("has the copyright with the full name, the ICP record, the EDI licence and the police record", async () => {
    const res = await request(site.origin).get("/portal/about/index.html");
    const footer = element(res.text, 'class="site-footer"');
    expect(footer).toContain('<p class="footer-copyright">© 2020-2026 测试科技有限公司 版权所有</p>');
    expect(footer).toContain('<a href="https://beian.miit.gov.cn/" target="_blank" rel="noopener noreferrer">京ICP备12345678号-1<');
    expect(footer).toContain("增值电信业务经营许可证：<!-- -->京B2-20200001");
    expect(footer).toContain('<a href="https://beian.mps.gov.cn/" target="_blank" rel="noopener noreferrer">京公网安备11010802000001号<');
  });

  it("leaves out the contact entries, QR codes and records that are absent", async () => {
    const sparse = await startStandInUpstream(
      portalRoutes(
        { themePortal: "0,1", copyright: "©", record: "沪ICP备1号" },
        { name: "小公司", fname: "小公司有限公司", qq2: "20002", addr1: "一个地址" },
      ),
    );
    const res = await aboutPageFrom(sparse);
    await sparse.close();
    const footer = element(res.text, 'class="site-footer"');
    const contact = (footer.match(/<li class="contact-item">.*?<\/li>/g) ?? []).map(textOf);
    expect(contact).toEqual(["QQ20002", "地址一个地址"]);
    expect(footer).not.toContain("qr-link");
    expect(footer).not.toContain("beian.mps.gov.cn");
    expect(footer).not.toContain("增值电信");
    expect(footer).toContain("沪ICP备1号");
  });
});

describe("QR code links", () => {
  it("renders a QR code only when its address is an http(s) or relative URL, as every other content link", async () => {
    const upstream = await startStandInUpstream(
      portalRoutes(
        { themePortal: "0,1" },
        {
          name: "公司",
          qrcode1: "javascript:alert(1)",
          qrcode2: " JaVaScRiPt:alert(2)",
          qrcode3: "java\tscript:alert(3)",
          qrcode4: "data:text/html,<script>alert(4)</script>",
          qrcode5: "/portal/media/qr-5.svg",
        },
      ),
    );
    const res = await aboutPageFrom(upstream);
    await upstream.close();
    const footer = element(res.text, 'class="site-footer"');
    expect([...footer.matchAll(/class="qr-link" href="([^"]*)"/g)].map((m) => m[1])).toEqual(["/portal/media/qr-5.svg"]);
    expect(footer).not.toMatch(/script:|data:text/i);
  });
});

describe("the theme", () => {
  it.each([
    ["1,2", "theme-1"],
    ["2,1", "theme-2"],
    ["0,1", "theme-default"],
    ["", "theme-default"],
  ])("themePortal %j puts the page in %s on the server", async (themePortal, theme) => {
    const themed = await startStandInUpstream(portalRoutes({ ...CONFIG, themePortal }, FULL_AUTHOR));
    const res = await aboutPageFrom(themed);
    await themed.close();
    expect(res.text).toMatch(new RegExp(`<div id="root">(<link [^>]+>)*<div class="site ${theme}">`));
  });
});

describe("the interface language", () => {
  it("is Chinese unprefixed, with a switch to the same page at its English address", async () => {
    const res = await request(site.origin).get("/portal/message/news/list.html?page=2");
    expect(res.text).toContain('<html lang="zh-CN">');
    expect(res.text).toContain(
      '<a class="lang-switch" href="/portal/en/message/news/list.html?page=2" hrefLang="en"><span class="visually-hidden">切换语言：</span><span lang="en">English</span></a>',
    );
  });

  it("is English under /portal/en/: shell strings, links that stay in English, and a switch back", async () => {
    const res = await request(site.origin).get("/portal/en/about/index.html");
    expect(res.text).toContain('<html lang="en">');
    expect(res.text).toContain('<a class="skip-link" href="#main-content">Skip to main content</a>');
    expect(res.text).toContain('<nav class="site-nav" aria-label="Main navigation">');
    expect(res.text).toContain('<h2 class="footer-title">Products &amp; Services</h2>');
    expect(res.text).toContain('<p class="footer-copyright">© 2020-2026 测试科技有限公司 All rights reserved</p>');
    expect(res.text).toContain('<a href="/portal/en/about/member/index.html">Founders</a>');
    expect(res.text).toContain('<a href="/portal/en/index.html#product-list">Products</a>');
    expect(res.text).toContain('href="/portal/about/index.html" hrefLang="zh-CN"');
    expect(res.text).not.toContain("跳到主要内容");
  });

  it("is the same page whatever the portal_lang cookie says: the address alone decides", async () => {
    const res = await request(site.origin).get("/portal/about/index.html").set("Cookie", "portal_lang=en");
    expect(res.text).toContain('<html lang="zh-CN">');
    expect(res.text).toContain('<a href="/portal/about/member/index.html">创始团队</a>');
    expect(res.headers.vary).toBe("Accept-Encoding");
  });

  it("leads the site's entry points to the home page of PORTAL_LANG, and stray English paths to the English home", async () => {
    const english = await startSite({ PORTAL_LANG: "en" });
    try {
      expect((await request(english.origin).get("/portal/")).headers.location).toBe("/portal/en/index.html");
      expect((await request(english.origin).get("/portal/nowhere?x=1")).headers.location).toBe("/portal/en/index.html?x=1");
      // The unprefixed pages are Chinese whatever the default.
      expect((await request(english.origin).get("/portal/about/index.html")).text).toContain('<html lang="zh-CN">');
    } finally {
      await english.close();
    }
    expect((await request(site.origin).get("/portal/")).headers.location).toBe("/portal/index.html");
    expect((await request(site.origin).get("/portal/en/nowhere")).headers.location).toBe("/portal/en/index.html");
  });
});
