/**
 * The header and the footer are rendered once per site version and language and kept
 * (docs/architecture.md#reused-parts): on the built site, with the page cache off so every
 * answer is a render, a page rendered with kept parts is byte for byte the page rendered
 * in place, each page's menu link and language switch are its own, and a change to the
 * site's data reaches every page at once, whatever the upstream's strings hold; the parts of
 * old site versions are let go, so what is kept stays bounded.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../server/config.ts";
import { previewLinkOf } from "../../server/preview/preview.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { newPurgeSecret } from "../support/purge-request.ts";
import { CLASSIFY, CONFIG, element, FULL_AUTHOR, portalRoutes } from "../support/shell-site.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const secret = newPurgeSecret();
const previewSecret = newPurgeSecret();
let upstream: StandInUpstream;
let site: BuiltSite;
let metricsUrl: string;

/** The headers and footers rendered pages used, by where they came from. */
async function partsBySource(): Promise<Record<"kept" | "rendered", number>> {
  const text = await (await fetch(metricsUrl)).text();
  const count = (source: string) =>
    Number(new RegExp(`^portal_page_parts_total\\{source="${source}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
  return { kept: count("kept"), rendered: count("rendered") };
}

const PAGES = [
  "/portal/about/index.html",
  "/portal/about/member/index.html",
  "/portal/message/notice/list.html",
  "/portal/en/about/index.html",
  "/portal/en/message/news/list.html?page=2",
  "/portal/job/school/index.html",
];

const get = (path: string) => request(site.origin).get(path).expect(200);
const purgeAll = () =>
  request(site.origin).post("/portal/_purge").set("Authorization", `Bearer ${secret}`).send({ all: true, mode: "hard" }).expect(202);

beforeAll(async () => {
  upstream = await startStandInUpstream(portalRoutes(CONFIG, FULL_AUTHOR));
  site = await startBuiltSite({
    API_BASE_URL: upstream.url,
    PORTAL_CLASSIFY: JSON.stringify(CLASSIFY),
    PORTAL_LANGS: "zh-CN,en",
    PAGE_CACHE: "off",
    PURGE_SECRET: secret,
    PREVIEW_SECRET: previewSecret,
    METRICS_PORT: "0",
    MISS_RATE_PER_MIN: "0",
  });
  const port = site.logs
    .map((line) => JSON.parse(line) as { msg?: string; port?: number })
    .find((entry) => entry.msg === "internal listener")?.port;
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
});

afterAll(async () => {
  await site?.close();
  await upstream?.close();
});

describe("pages with the header and the footer kept", () => {
  it("are byte for byte the pages rendered in place, in any order", async () => {
    // The first page of each language renders its parts in place; the later ones splice in those kept.
    const first = new Map<string, string>();
    for (const path of PAGES) first.set(path, (await get(path)).text);
    const before = await partsBySource();
    for (const path of [...PAGES].reverse()) expect((await get(path)).text, path).toBe(first.get(path));
    // Every later page took both parts from those kept: none was rendered again.
    const after = await partsBySource();
    expect(after.kept - before.kept).toBe(2 * PAGES.length);
    expect(after.rendered).toBe(before.rendered);
  });

  it("mark their own menu link as the current page and switch language to their own address", async () => {
    for (const [path, current, other] of [
      ["/portal/about/index.html", "/portal/about/index.html", "/portal/en/about/index.html"],
      ["/portal/about/member/index.html", "/portal/about/member/index.html", "/portal/en/about/member/index.html"],
      ["/portal/en/about/index.html", "/portal/en/about/index.html", "/portal/about/index.html"],
    ] as const) {
      const html = (await get(path)).text;
      const nav = element(html, 'id="site-menu"');
      const currents = [...nav.matchAll(/<a [^>]*aria-current="page"[^>]*>/g)].map(([link]) => /href="([^"]*)"/.exec(link)?.[1]);
      expect(new Set(currents), path).toEqual(new Set([current]));
      expect(element(html, 'class="lang-switch"'), path).toContain(`href="${other}"`);
    }
  });

  it("show a change of the site's name and menus on every page at once", async () => {
    for (const path of PAGES) await get(path);
    upstream.routes.set("/api/portal/sys/sysauthor", { ...FULL_AUTHOR, name: "新名公司", fname: "新名科技有限公司" });
    const menus = upstream.routes.get("/api/portal/sys/menu/list") as { id: number; title: string }[];
    upstream.routes.set(
      "/api/portal/sys/menu/list",
      menus.map((menu) => (menu.id === 3 ? { ...menu, title: "公司概况" } : menu)),
    );
    await purgeAll();
    for (const path of PAGES.filter((one) => !one.startsWith("/portal/en/"))) {
      const html = (await get(path)).text;
      expect(element(html, 'class="site-header"'), path).toContain("新名公司");
      expect(element(html, 'class="site-header"'), path).toContain("公司概况");
      expect(element(html, 'class="site-footer"'), path).toContain("新名科技有限公司");
      expect(html, path).not.toContain("测试公司");
      expect(html, path).not.toContain("关于我们</a>");
    }
  });

  it("are never used by a preview, whose parts are rendered in place and counted so", async () => {
    const path = PAGES[0] as string;
    const visitors = (await get(path)).text;
    const key = parseConfig({ PREVIEW_SECRET: previewSecret }).preview.secrets[0];
    if (!key) throw new Error("PREVIEW_SECRET gave no key");
    const opened = await fetch(site.origin + previewLinkOf(path, Math.floor(Date.now() / 1000) + 600, key), { redirect: "manual" });
    const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const before = await partsBySource();
    const preview = await request(site.origin).get(path).set("Cookie", cookie).expect(200);
    const after = await partsBySource();
    expect(after).toEqual({ kept: before.kept, rendered: before.rendered + 2 });
    expect(element(preview.text, 'class="site-header"')).toBe(element(visitors, 'class="site-header"'));
    expect(preview.text).not.toContain("<portal-part");
  });

  it("are kept for the last 32 site versions of a language (64 parts), the oldest let go first", async () => {
    const path = PAGES[0] as string;
    /** A site version of its own: the site's name changed, the caches purged, one page rendered with it. */
    const renderVersion = async (name: string) => {
      upstream.routes.set("/api/portal/sys/sysauthor", { ...FULL_AUTHOR, name });
      await purgeAll();
      await get(path);
    };
    const renderedBy = async (name: string) => {
      const before = await partsBySource();
      await renderVersion(name);
      return (await partsBySource()).rendered - before.rendered;
    };
    expect(await renderedBy("版本0")).toBe(2);
    for (let version = 1; version < 32; version++) expect(await renderedBy(`版本${version}`)).toBe(2);
    // Version 0 is the oldest of the 32 kept: its parts are taken, not rendered.
    expect(await renderedBy("版本0")).toBe(0);
    // One more version lets version 0's parts go; back to it, they are rendered again.
    expect(await renderedBy("版本32")).toBe(2);
    expect(await renderedBy("版本0")).toBe(2);
  });

  it("keep the upstream's strings as text, even ones shaped like the marks a kept part is cut at", async () => {
    const hostile = `<portal-part data-n="x"></portal-part> aria-current="\uE0000041" \uE000 </header>`;
    const menus = upstream.routes.get("/api/portal/sys/menu/list") as { id: number; title: string }[];
    upstream.routes.set(
      "/api/portal/sys/menu/list",
      menus.map((menu) => (menu.id === 3 ? { ...menu, title: hostile } : menu)),
    );
    upstream.routes.set("/api/portal/sys/sysauthor", { ...FULL_AUTHOR, name: hostile, fname: ["数组", { 对象: 1 }] });
    await purgeAll();
    const first = new Map<string, string>();
    for (const path of PAGES) first.set(path, (await get(path)).text);
    for (const path of PAGES) {
      const html = (await get(path)).text;
      expect(html, path).toBe(first.get(path));
      expect(html, path).not.toContain("<portal-part");
      expect(element(html, 'class="site-header"'), path).toContain("&lt;portal-part data-n=&quot;x&quot;&gt;");
    }
  });
});
