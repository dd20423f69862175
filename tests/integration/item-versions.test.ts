/**
 * Which languages an item exists in, against a real upstream on loopback with 50 news items translated into some of
 * ten languages: what knowing it costs the upstream (the same for two languages as for ten, per page), that every
 * page's hreflang set names exactly the versions that exist, reciprocally and as the sitemap does, and that search
 * engines are told of an item at each of its languages' addresses and no other (docs/behaviour.md#which-versions-exist).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { KNOWN_LANGS, type Lang } from "../../shared/langs.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { testConfig } from "../support/config.ts";
import { DEMO_CLASSIFY } from "../support/demo-upstream.ts";
import { type EngineReceiver, startBaiduReceiver, startIndexNowReceiver } from "../support/engine-receivers.ts";
import { newPurgeSecret } from "../support/purge-request.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";
import { NEWS_PATH, translatedNewsRoutes } from "../support/translated-news-upstream.ts";

const ORIGIN = "https://www.example.com";
const ITEMS = 50;
/** zh-CN first: the content's own language. */
const TEN: readonly Lang[] = ["zh-CN", ...KNOWN_LANGS.filter((lang) => lang !== "zh-CN")];
const TWO: readonly Lang[] = ["zh-CN", "en"];

/** Item 7 in Japanese and Arabic; every third in none; the others in two or three languages, never the same ones. */
const JA_AR = 7;
function translatedInto(id: number): Lang[] {
  if (id === JA_AR) return ["ja", "ar"];
  return id % 3 === 0 ? [] : TEN.slice(1).filter((_, k) => (id + k) % 4 === 0);
}

const prefixOf = (lang: Lang) => (lang === "zh-CN" ? "" : `/${lang.toLowerCase()}`);
const newsPage = (id: number, lang: Lang) => `/portal${prefixOf(lang)}/message/news/${id}`;
const ids = Array.from({ length: ITEMS }, (_, i) => i + 1);

function alternatesOf(html: string): Record<string, string> {
  const head = html.slice(0, html.indexOf("</head>"));
  return Object.fromEntries([...head.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map(([, l, h]) => [l, h]));
}

const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]+)">/.exec(html)?.[1];

async function siteIn(langs: readonly Lang[]): Promise<{ upstream: StandInUpstream; site: BuiltSite }> {
  const upstream = await startStandInUpstream(translatedNewsRoutes("locale", ITEMS, translatedInto));
  const site = await startBuiltSite({
    API_BASE_URL: upstream.url,
    PORTAL_CLASSIFY: DEMO_CLASSIFY,
    PORTAL_LANGS: langs.join(","),
    CONTENT_LANG_PARAM: "locale",
    PUBLIC_ORIGIN: ORIGIN,
    CACHE_TTL_MS: "600000",
    MISS_RATE_PER_MIN: "0",
  });
  return { upstream, site };
}

async function html(site: BuiltSite, path: string): Promise<string> {
  const res = await fetch(site.origin + path);
  expect(res.status, path).toBe(200);
  return res.text();
}

/** The upstream calls 50 cold Chinese detail pages make, beyond those the first page makes for the shell. */
async function callsFor50ColdPages(langs: readonly Lang[]) {
  const { upstream, site } = await siteIn(langs);
  try {
    await html(site, "/portal/about/index.html");
    const before = upstream.requests.length;
    for (const id of ids) await html(site, newsPage(id, "zh-CN"));
    const made = upstream.requests.slice(before).map((r) => r.url);
    return {
      all: made.length,
      details: made.filter((url) => /\/message\/news\/\d+/.test(url)).length,
      lists: made.filter((url) => url.startsWith(`${NEWS_PATH}/list`)).length,
    };
  } finally {
    await site.close();
    await upstream.close();
  }
}

describe("knowing which languages an item exists in", () => {
  it("costs 50 cold detail pages no upstream call per language: each language's list once, whatever the number of pages", async () => {
    const two = await callsFor50ColdPages(TWO);
    const ten = await callsFor50ColdPages(TEN);
    // Each page asks for its own item alone, in its own language, with two languages as with ten.
    expect(two.details).toBe(ITEMS);
    expect(ten.details).toBe(ITEMS);
    // Each other language's list (one page of 100 holds all 50), once for all the pages.
    expect(two.lists).toBe(TWO.length - 1);
    expect(ten.lists).toBe(TEN.length - 1);
    expect(ten.all - two.all).toBe(TEN.length - TWO.length);
  });

  describe("in ten languages", () => {
    let upstream: StandInUpstream;
    let site: BuiltSite;

    beforeAll(async () => {
      ({ upstream, site } = await siteIn(TEN));
    });
    afterAll(async () => {
      await site?.close();
      await upstream?.close();
    });

    it("names in every page's hreflang set exactly the versions that exist, reciprocally, as the sitemap does", async () => {
      const sitemap = await html(site, "/sitemap.xml");
      const listed = new Map(
        [...sitemap.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>[^<]*<\/lastmod>)?(.*?)<\/url>/g)].map(([, loc, links]) => [
          loc,
          Object.fromEntries([...(links as string).matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map(([, l, h]) => [l, h])),
        ]),
      );
      for (const id of ids) {
        const versions = ["zh-CN", ...translatedInto(id)] as Lang[];
        const expected =
          versions.length < 2
            ? {}
            : Object.fromEntries([
                ...versions.map((lang) => [lang, ORIGIN + newsPage(id, lang)]),
                ["x-default", ORIGIN + newsPage(id, "zh-CN")],
              ]);
        for (const lang of TEN) {
          const page = await html(site, newsPage(id, lang));
          const url = ORIGIN + newsPage(id, lang);
          if (versions.includes(lang)) {
            expect(alternatesOf(page), url).toEqual(expected);
            expect(canonicalOf(page), url).toBe(url);
            expect(listed.get(url), url).toEqual(expected);
          } else {
            // Not in this language: no set claimed, the page in the content's own language canonical, no sitemap entry.
            expect(alternatesOf(page), url).toEqual({});
            expect(canonicalOf(page), url).toBe(ORIGIN + newsPage(id, "zh-CN"));
            expect(listed.has(url), url).toBe(false);
          }
        }
      }
      // Some items in several languages, some in one, some in none: the sets differ from item to item.
      expect(new Set(ids.map((id) => translatedInto(id).length))).toEqual(new Set([0, 2, 3]));
    });

    it("still names an item's versions when no list holds it, reading the item in each language", async () => {
      // An item newer than the lists' cached answers: its page reads it in each language, as before there were lists.
      const id = ITEMS + 1;
      upstream.routes.set(`${NEWS_PATH}/${id}`, (url: URL) => {
        const locale = url.searchParams.get("locale");
        const standIn = locale !== null && locale !== "ja" ? { lang: "zh-CN" } : {};
        return { body: { code: 0, msg: "ok", data: { id, title: `new ${id}`, ...standIn } } };
      });
      const page = await html(site, newsPage(id, "zh-CN"));
      expect(Object.keys(alternatesOf(page))).toEqual(["zh-CN", "ja", "x-default"]);
      // An id that is no item costs no read per language: its page is a 404.
      const before = upstream.requests.length;
      expect((await fetch(site.origin + newsPage(9999, "zh-CN"))).status).toBe(404);
      expect(upstream.requests.slice(before).filter((r) => r.url.startsWith(`${NEWS_PATH}/9999`))).toHaveLength(1);
    });
  });
});

describe("telling search engines of an item in many languages", () => {
  let upstream: StandInUpstream;
  let indexNow: EngineReceiver;
  let app: PortalApp;
  let dir: string;
  const secret = newPurgeSecret();

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-versions-push-"));
    upstream = await startStandInUpstream(translatedNewsRoutes("locale", ITEMS, translatedInto));
    const baidu = await startBaiduReceiver({ site: "www.example.com", token: "baiduToken123" });
    indexNow = await startIndexNowReceiver();
    const env = {
      DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
      PORTAL_LANGS: TEN.join(","),
      CONTENT_LANG_PARAM: "locale",
      PUBLIC_ORIGIN: ORIGIN,
      PURGE_SECRET: secret,
      INDEXNOW_KEY: "portal-indexnow-key-0123456789",
      INDEXNOW_ENDPOINT: indexNow.url,
      BAIDU_PUSH_TOKEN: "baiduToken123",
      BAIDU_PUSH_ENDPOINT: baidu.url,
      PUSH_GATHER_MS: "0",
    };
    app = createApp(testConfig(env), { upstreamUrl: upstream.url, push: { pollMs: 5 } });
    app.portal.push.start();
    return () => baidu.close();
  });
  afterAll(async () => {
    await app?.portal.close();
    await Promise.all([upstream?.close(), indexNow?.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  it("sends an item translated into Japanese and Arabic at its Chinese, Japanese and Arabic addresses, and at no other", async () => {
    const id = JA_AR;
    await request(app)
      .post("/portal/_purge")
      .set("authorization", `Bearer ${secret}`)
      .send({ tags: [`news:${id}`] })
      .expect(202);
    const pages = [newsPage(id, "zh-CN"), newsPage(id, "ja"), newsPage(id, "ar")].map((page) => ORIGIN + page);
    await indexNow.waitFor(() => pages.every((url) => indexNow.accepted().includes(url)));
    await app.portal.push.settled();
    const sent = indexNow.calls.flatMap((call) => call.urls).filter((url) => url.endsWith(`/message/news/${id}`));
    expect(sent.sort()).toEqual([...pages].sort());
  });
});
