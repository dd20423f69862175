/**
 * The site shell as the built site renders it (no JavaScript involved), beside the menu: the
 * footer from the author and site config, QR code links, the theme class, and the interface
 * language from ?lang= or the cookie.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { endpointSrc } from "../support/image-markup.ts";
import {
  aboutPageFrom,
  CONFIG,
  element,
  FULL_AUTHOR,
  portalRoutes,
  shellSiteForTheFile,
  site,
  startSite,
  textOf,
} from "../support/shell-site.ts";
import { startStandInUpstream } from "../support/stand-in-upstream.ts";

shellSiteForTheFile();

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
    // Each number kept whole and left to right, in a right-to-left page too (tests/browser/right-to-left.test.ts).
    expect(footer).toContain(
      '<a href="https://beian.miit.gov.cn/" target="_blank" rel="noopener noreferrer"><span class="record-number" dir="ltr">京ICP备12345678号-1</span><',
    );
    expect(footer).toContain('增值电信业务经营许可证：<span class="record-number" dir="ltr">京B2-20200001</span>');
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
