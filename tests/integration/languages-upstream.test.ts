/**
 * Content in each language in front of an external upstream (docs/behaviour.md#languages),
 * against the built site: without CONTENT_LANG_PARAM no English page claims to be a
 * translation; with it, the upstream is asked in each page's language, and caches and
 * purges never mix one language's answer with the other's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyInLang } from "../../shared/data-keys.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { DEMO_CLASSIFY, demoUpstreamRoutes } from "../support/demo-upstream.ts";
import { english, get, HAN, ORIGIN, text } from "../support/language-pages.ts";
import { headOf, mainOf } from "../support/page-head.ts";
import { newPurgeSecret } from "../support/purge-request.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

describe("in front of an upstream with no translations (CONTENT_LANG_PARAM unset)", () => {
  let upstream: StandInUpstream;
  let site: BuiltSite;

  beforeAll(async () => {
    upstream = await startStandInUpstream(demoUpstreamRoutes());
    site = await startBuiltSite({ API_BASE_URL: upstream.url, PORTAL_CLASSIFY: DEMO_CLASSIFY, PUBLIC_ORIGIN: ORIGIN });
  });
  afterAll(async () => {
    await site?.close();
    await upstream?.close();
  });

  it("has no English page claim to be a translation: no alternates, the Chinese page canonical, content marked zh-CN", async () => {
    for (const zh of [
      "/portal/index.html",
      "/portal/about/index.html",
      "/portal/message/news/list.html",
      "/portal/message/news/33",
      "/portal/product/1",
    ]) {
      const html = await text(site, english(zh));
      const head = headOf(html);
      expect(head.htmlLang, zh).toBe("en");
      expect(head.alternates, zh).toEqual({});
      expect(head.canonical, zh).toBe(`${ORIGIN}${zh}`);
      expect(html, zh).toContain('"inLanguage":"zh-CN"');
      expect(mainOf(html), zh).toContain('lang="zh-CN"');
      expect(headOf(await text(site, zh)).alternates, zh).toEqual({});
    }
    expect(mainOf(await text(site, "/portal/en/message/news/33"))).toContain("This content is available in Chinese only.");
    // Nothing asked the upstream for a language it does not read.
    expect(upstream.requests.filter((r) => r.url.includes("lang"))).toEqual([]);
  });
});

describe("in front of an upstream that reads the content language (CONTENT_LANG_PARAM=locale)", () => {
  let upstream: StandInUpstream;
  let site: BuiltSite;
  const secret = newPurgeSecret();

  beforeAll(async () => {
    upstream = await startStandInUpstream(demoUpstreamRoutes("locale"));
    site = await startBuiltSite({
      API_BASE_URL: upstream.url,
      PORTAL_CLASSIFY: DEMO_CLASSIFY,
      CONTENT_LANG_PARAM: "locale",
      PURGE_SECRET: secret,
      CACHE_TTL_MS: "600000",
      MISS_RATE_PER_MIN: "0",
    });
  });
  afterAll(async () => {
    await site?.close();
    await upstream?.close();
  });

  const asked = (path: string) => upstream.requests.filter((r) => r.url.split("?")[0] === path).map((r) => r.url);

  it("asks the upstream in English for English pages and API requests, and in Chinese (no parameter) for the rest", async () => {
    await text(site, "/portal/en/product/2");
    await text(site, "/portal/product/2");
    expect(asked("/api/portal/product/product/2").sort()).toEqual([
      "/api/portal/product/product/2",
      "/api/portal/product/product/2?locale=en",
    ]);
    const answer = (await (await get(site, "/api/portal/message/notice/34?lang=en")).json()) as { data: { lang?: string } };
    expect(answer.data.lang).toBe("zh-CN");
    expect(asked("/api/portal/message/notice/34")).toEqual(["/api/portal/message/notice/34?locale=en"]);
    expect((await get(site, "/api/portal/message/notice/34?lang=de")).status).toBe(400);
  });

  it("keeps each language's answers apart in the API cache and the page cache", async () => {
    const zh = await get(site, "/api/portal/service/service/3");
    const en = await get(site, "/api/portal/service/service/3?lang=en");
    expect(zh.headers.get("x-cache")).toBe("MISS");
    expect(en.headers.get("x-cache")).toBe("MISS");
    expect(JSON.stringify(await zh.json())).toMatch(HAN);
    expect(JSON.stringify(await en.json())).not.toMatch(HAN);
    // The page the English answer is already cached for reads it, not the Chinese one; and the other way round.
    const enPage = await text(site, "/portal/en/service/3");
    expect(mainOf(enPage)).toContain("Smart Industrial Park Security");
    expect(mainOf(await text(site, "/portal/service/3"))).toContain("智慧园区安防解决方案");
    const again = await get(site, "/portal/en/service/3");
    expect(again.headers.get("x-page-cache")).toBe("HIT");
    expect(mainOf(await again.text())).toContain("Smart Industrial Park Security");
    expect(asked("/api/portal/service/service/3")).toHaveLength(2);
  });

  it("purges every language of an item by its tag", async () => {
    await text(site, "/portal/en/message/news/31");
    await text(site, "/portal/message/news/31");
    await get(site, "/api/portal/message/news/31?lang=en");
    const res = await fetch(`${site.origin}/portal/_purge`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ tags: ["news:31"] }),
    });
    expect(res.status).toBe(202);
    // Two API answers (one per language) and two pages.
    expect(((await res.json()) as { purged: { tags: Record<string, number> } }).purged.tags["news:31"]).toBe(4);
    // (The API answer first: a stale page's re-render refreshes the data it reads.)
    expect((await get(site, "/api/portal/message/news/31?lang=en")).headers.get("x-cache")).toBe("STALE");
    for (const path of ["/portal/en/message/news/31", "/portal/message/news/31"]) {
      expect((await get(site, path)).headers.get("x-page-cache"), path).toBe("STALE");
    }
  });

  it("keys an English answer apart from the Chinese one, as the page state and the browser ask for it", () => {
    expect(keyInLang("/message/news/list?pageIndex=0&pageMaxCount=20", "en")).toBe(
      "/message/news/list?lang=en&pageIndex=0&pageMaxCount=20",
    );
    expect(keyInLang("/plan/company", "en")).toBe("/plan/company?lang=en");
    expect(keyInLang("/plan/company", "zh-CN")).toBe("/plan/company");
  });
});
