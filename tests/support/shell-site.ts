/**
 * The site the shell suites read: a stand-in upstream with a menu tree, classify data, a full
 * author record and site config, and the built site on it, started once for the calling
 * file (`upstream` and `site` are live bindings); and the element helpers that cut the
 * menu and footer out of its HTML.
 */
import request from "supertest";
import { afterAll, beforeAll } from "vitest";
import { type BuiltSite, startBuiltSite, withBuiltSite } from "./built-site.ts";
import { type StandInUpstream, startStandInUpstream } from "./stand-in-upstream.ts";

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
export const CLASSIFY = [
  { menuId: 2, api: "/api/portal/product/product/list", path: "/product" },
  { menuId: 13, api: "/api/portal/sys/classify/solutions", path: "/service" },
];

export const FULL_AUTHOR = {
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
export const CONFIG = {
  themePortal: "1,1",
  copyright: "© 2020-2026",
  record: "京ICP备12345678号-1",
  edi: "京B2-20200001",
  policeRecord: "京公网安备11010802000001号",
};

export function portalRoutes(config: object, author: object): Record<string, unknown> {
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
export function elementAt(html: string, start: number): string {
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
export function element(html: string, marker: string): string {
  const at = html.indexOf(marker);
  if (at === -1) throw new Error(`no element with ${marker}`);
  return elementAt(html, html.lastIndexOf("<", at));
}

export const textOf = (markup: string) => markup.replace(/<[^>]+>/g, "");

export let upstream: StandInUpstream;
export let site: BuiltSite;

export const startSite = (env: Record<string, string> = {}) =>
  startBuiltSite({ API_BASE_URL: upstream.url, PORTAL_CLASSIFY: JSON.stringify(CLASSIFY), ...env });

/** The about page from a site of its own over another upstream. */
export const aboutPageFrom = (other: StandInUpstream) =>
  withBuiltSite({ API_BASE_URL: other.url }, (fresh) => request(fresh.origin).get("/portal/about/index.html"));

/** Starts the upstream and the built site before the calling file's tests, and closes them after. */
export function shellSiteForTheFile(): void {
  beforeAll(async () => {
    upstream = await startStandInUpstream(portalRoutes(CONFIG, FULL_AUTHOR));
    site = await startSite();
  });

  afterAll(async () => {
    await site?.close();
    await upstream.close();
  });
}
