/** Pages as the built site serves them over a stand-in upstream: the first head, the embedded state, 404 and 502. */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STATE_ELEMENT_ID } from "../../shared/page-state.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

let upstream: StandInUpstream;
let site: BuiltSite;

const AUTHOR = { name: "测试公司", fname: "测试科技有限公司", logo: "/l.svg", phone: "1", email: "a@b.example" };
const CONFIG = {
  ico: "/favicon.svg",
  metaKeywords: "关键词",
  metaDescription: "描述",
  baiduVerify: "b-1",
  so360Verify: "s-1",
  tencentVerify: "t-1",
  googleVerify: "g-1",
  themePortal: "1,1",
  copyright: "©",
  record: "ICP",
  edi: "EDI",
};

function stateOf(html: string) {
  const match = new RegExp(`<script id="${STATE_ELEMENT_ID}" type="application/json">(.*?)</script>`).exec(html);
  return JSON.parse(match?.[1] ?? "null");
}

beforeAll(async () => {
  upstream = await startStandInUpstream({
    "/api/portal/sys/syscfg": CONFIG,
    "/api/portal/sys/sysauthor": AUTHOR,
    "/api/portal/sys/menu/list": [],
    "/api/portal/message/news/7": {
      id: 7,
      title: "标题</script><!--x",
      brief: "",
      img: "",
      dateTime: "20240102030405",
      detail: "<p>d</p>",
    },
    "/api/portal/message/news/8": {},
  });
  site = await startBuiltSite({ API_BASE_URL: upstream.url });
});

afterAll(async () => {
  await site?.close();
  await upstream.close();
});

describe("server-rendered pages", () => {
  it("puts the title rule, metas and verification tags in the first head", async () => {
    const res = await request(site.origin).get("/portal/message/news/7");
    expect(res.status).toBe(200);
    expect(res.text).toContain("<title>测试公司 - 标题&lt;/script&gt;&lt;!--x</title>");
    for (const tag of [
      '<meta name="keywords" content="关键词">',
      '<meta name="description" content="描述">',
      '<meta name="baidu-site-verification" content="b-1">',
      '<meta name="360-site-verification" content="s-1">',
      '<meta name="sogou_site_verification" content="t-1">',
      '<meta name="google-site-verification" content="g-1">',
      '<link rel="icon" href="/portal/_img?url=%2Ffavicon.svg&amp;w=64&amp;q=75">',
    ]) {
      expect(res.text.split("</head>")[0]).toContain(tag);
    }
    expect(res.text).toContain('<html lang="zh-CN">');
  });

  it("embeds the data it rendered with as JSON that cannot close its script", async () => {
    const res = await request(site.origin).get("/portal/message/news/7");
    const scripts = res.text.match(/<\/script>/g) ?? [];
    const state = stateOf(res.text);
    expect(state.fallback["/message/news/7"].title).toBe("标题</script><!--x");
    expect(res.text).not.toContain("标题</script>");
    expect(scripts.length).toBeGreaterThan(0);
  });

  it("answers 404 for a detail the upstream does not have, an empty detail, or a malformed id", async () => {
    for (const path of ["/portal/message/news/999", "/portal/message/news/8", "/portal/message/news/abc", "/portal/message/news?id=0"]) {
      const res = await request(site.origin).get(path);
      expect(res.status, path).toBe(404);
      // Its title says so, not the page type's name (新闻详情).
      expect(res.text, path).toContain("<title>测试公司 - 页面未找到</title>");
      // Kept briefly by shared caches like any page (scans for ids cost nothing twice), never by browsers.
      expect(res.headers["cache-control"]).toMatch(/^(no-store|public, max-age=0, s-maxage=)/);
    }
    const english = await request(site.origin).get("/portal/en/message/news/999");
    expect(english.status).toBe(404);
    expect(english.text).toContain("<title>测试公司 - Page not found</title>");
  });

  it("answers 502 with an error state when a call fails with nothing stale", async () => {
    upstream.behaviour = "error";
    const fresh = await startBuiltSite({ API_BASE_URL: upstream.url });
    try {
      const res = await request(fresh.origin).get("/portal/about/index.html");
      expect(res.status).toBe(502);
      expect(res.text).toContain('role="alert"');
      expect(Object.keys(stateOf(res.text).failures).length).toBeGreaterThan(0);
    } finally {
      upstream.behaviour = "ok";
      await fresh.close();
    }
  });

  it("renders the home title as name plus full name", async () => {
    const res = await request(site.origin).get("/portal/index.html");
    expect(res.text).toContain("<title>测试公司 - 测试科技有限公司</title>");
  });
});
