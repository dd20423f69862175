/**
 * The home page suites' stand-in content (12 slides, 5 products, 8 services, news, notices,
 * 23 partners, a custom home block and script), the home page of a fresh built site over it,
 * and the DOM helpers that read the rendered page.
 */
import type { Document, Element } from "domhandler";
import { DomUtils, parseDocument } from "htmlparser2";
import request from "supertest";
import { startBuiltSite } from "./built-site.ts";
import { startStandInUpstream } from "./stand-in-upstream.ts";

export const SLIDES = Array.from({ length: 12 }, (_, i) => ({
  title: `幻灯片${i + 1}号`,
  url: `https://slides.example/${i + 1}`,
  img: `/portal/media/slide-${i + 1}.svg`,
}));
export const PRODUCTS = Array.from({ length: 5 }, (_, i) => ({
  id: 11 + i,
  name: `产品${i + 1}号`,
  propImg: `/portal/media/p-${i + 1}.svg`,
  type: 1,
}));
export const SERVICES = Array.from({ length: 8 }, (_, i) => ({ id: 21 + i, name: `方案${i + 1}号`, type: 1 }));
export const paged = (items: unknown[]) => ({ pageDataList: items, totalCount: items.length, totalPageCount: 1 });
export const NEWS = Array.from({ length: 6 }, (_, i) => ({
  id: 31 + i,
  title: `新闻${i + 1}号`,
  brief: "",
  img: "",
  dateTime: `2024030${i + 1}093000`,
}));
export const NOTICES = Array.from({ length: 5 }, (_, i) => ({
  id: 41 + i,
  title: `公告${i + 1}号`,
  brief: "",
  img: "",
  dateTime: `2024041${i}`,
}));
export const PARTNERS = Array.from({ length: 23 }, (_, i) => ({
  logo: `/portal/media/partner-${i + 1}.svg`,
  url: `https://partner${i + 1}.example/`,
}));
export const MARKUP = '<section class="intro"><h2>定制首页内容</h2><p>欢迎访问</p></section>';
export const SCRIPT = "useEval|container.dataset.ran = String(Number(container.dataset.ran || 0) + 1); // 脚本不应出现在页面里";

export function siteRoutes(themePortal: string, html: string): Record<string, unknown> {
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

export interface Rendered {
  status: number;
  text: string;
  doc: Document;
}

/** The home page of a fresh app (its own cache) over a stand-in upstream with these routes. */
export async function renderHome(
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

export const hasClass = (name: string) => (el: Element) => (el.attribs.class ?? "").split(/\s+/).includes(name);
export const all = (root: Document | Element, test: (el: Element) => boolean) => DomUtils.findAll(test, [root]);
export function one(root: Document | Element, test: (el: Element) => boolean): Element {
  const found = DomUtils.findOne(test, [root]);
  if (!found) throw new Error("element not found");
  return found;
}
export const byId = (root: Document | Element, id: string) => one(root, (el) => el.attribs.id === id);
export const text = (el: Element) => DomUtils.textContent(el).trim();
export const tag = (name: string) => (el: Element) => el.name === name;

/** The JSON-LD blocks of the page's head, parsed. */
export const structuredData = (doc: Document) =>
  all(doc, (el) => el.name === "script" && el.attribs.type === "application/ld+json").map(
    (el) => JSON.parse(DomUtils.textContent(el)) as { "@type"?: string; name?: string; legalName?: string },
  );
