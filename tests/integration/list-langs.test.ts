/**
 * Each language's list as the pages and the sitemap read it to know which items exist in that language
 * (server/langs/list-langs.ts), through the app's own API cache in front of a real upstream on loopback: every page
 * of a long list, read once however often it is asked for, and a failed page said to be missing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiReader } from "../../server/api-proxy/api-reader.ts";
import { createApp, type PortalApp } from "../../server/app.ts";
import { markOf, readListInLang } from "../../server/langs/list-langs.ts";
import type { Lang } from "../../shared/langs.ts";
import { newsDetail } from "../../shared/pages/message-pages.ts";
import { testConfig } from "../support/config.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";
import { NEWS_PATH, translatedNewsRoutes } from "../support/translated-news-upstream.ts";

/** Three pages of 100. */
const ITEMS = 250;
const translatedInto = (id: number): Lang[] => (id % 2 === 0 ? ["ja"] : []);

describe("a language's list of items", () => {
  let upstream: StandInUpstream;
  let app: PortalApp;
  let read: ReturnType<typeof createApiReader>["get"];

  beforeAll(async () => {
    upstream = await startStandInUpstream(translatedNewsRoutes("locale", ITEMS, translatedInto));
    const config = testConfig({ PORTAL_LANGS: "zh-CN,en,ja", CONTENT_LANG_PARAM: "locale", CACHE_TTL_MS: "600000" });
    app = createApp(config, { upstreamUrl: upstream.url });
    read = createApiReader(app.portal.cache, app.portal.upstream, config.cache, [], "locale").get;
  });
  afterAll(async () => {
    await app?.portal.close();
    await upstream?.close();
  });

  const lists = () => upstream.requests.filter((r) => r.url.startsWith(`${NEWS_PATH}/list`)).map((r) => r.url);

  it("holds every item of every page, translated or the stand-in, each page asked for once however often it is read", async () => {
    const japanese = await readListInLang(read, newsDetail.detail.items, "ja");
    expect(japanese.complete).toBe(true);
    expect(japanese.marks).toHaveLength(3);
    expect([1, 2, 149, 150, 249, 250].map((id) => markOf(japanese, id))).toEqual([false, true, false, true, false, true]);
    expect(markOf(japanese, ITEMS + 1)).toBeUndefined();
    expect(japanese.freshForMs).toBeGreaterThan(0);
    expect(lists().sort()).toEqual([0, 1, 2].map((page) => `${NEWS_PATH}/list?pageIndex=${page}&pageMaxCount=100&locale=ja`).sort());
    const again = await Promise.all(Array.from({ length: 20 }, () => readListInLang(read, newsDetail.detail.items, "ja")));
    for (const list of again)
      expect([1, 2, 149, 150, 249, 250].map((id) => markOf(list, id))).toEqual([false, true, false, true, false, true]);
    expect(lists()).toHaveLength(3);
  });

  it("says a page is missing when its call failed, and claims nothing of the items on it", async () => {
    const answer = upstream.routes.get(`${NEWS_PATH}/list`) as (url: URL) => { status?: number; body: unknown };
    upstream.routes.set(`${NEWS_PATH}/list`, (url: URL) =>
      url.searchParams.get("pageIndex") === "2" ? { status: 500, body: { code: 500, msg: "down" } } : answer(url),
    );
    const english = await readListInLang(read, newsDetail.detail.items, "en");
    expect(english.complete).toBe(false);
    expect(english.freshForMs).toBe(0);
    expect(markOf(english, 250)).toBe(false);
    expect(markOf(english, 1)).toBeUndefined();
  });
});
