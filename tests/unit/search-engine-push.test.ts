/**
 * Telling search engines, the parts without sockets: the settings, which addresses an item
 * has, which paths may be sent, what an import changed, and when Baidu's day starts again.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../server/config.ts";
import type { SiteFile } from "../../server/content/site-file.ts";
import { addressesOf, addressesOfGone, itemOfPath, itemOfTag } from "../../server/push/page-addresses.ts";
import { nextChinaMidnight } from "../../server/push/push-sender.ts";
import { unsendablePath } from "../../server/push/sendable-path.ts";
import { changedItemsOf } from "../../server/push/site-changes.ts";

const ORIGIN = { PUBLIC_ORIGIN: "https://www.example.com" };

describe("the search engines' settings", () => {
  it("reads both engines with their default endpoints, and neither when unset", () => {
    const config = parseConfig({ ...ORIGIN, INDEXNOW_KEY: "abcDEF-0123", BAIDU_PUSH_TOKEN: "tok3n" }).push;
    expect(config).toEqual({
      publicOrigin: "https://www.example.com",
      indexNow: { key: "abcDEF-0123", endpoint: "https://api.indexnow.org/indexnow" },
      baidu: { token: "tok3n", endpoint: "http://data.zz.baidu.com/urls" },
      gatherMs: 3000,
    });
    expect(parseConfig({}).push).toMatchObject({ indexNow: undefined, baidu: undefined });
  });

  it("refuses a key or token without PUBLIC_ORIGIN, with one line naming both", () => {
    expect(() => parseConfig({ INDEXNOW_KEY: "abcDEF-0123" })).toThrow(new ConfigError("INDEXNOW_KEY needs PUBLIC_ORIGIN as well"));
    expect(() => parseConfig({ BAIDU_PUSH_TOKEN: "tok3n" })).toThrow(new ConfigError("BAIDU_PUSH_TOKEN needs PUBLIC_ORIGIN as well"));
  });

  it("refuses an IndexNow key IndexNow would refuse, without showing it", () => {
    for (const key of ["short", "has space in it", "under_score_key", "k".repeat(129)]) {
      expect(() => parseConfig({ ...ORIGIN, INDEXNOW_KEY: key })).toThrow(
        "INDEXNOW_KEY must be 8 to 128 characters of a-z, A-Z, 0-9 and - (value not shown)",
      );
    }
    expect(() => parseConfig({ ...ORIGIN, INDEXNOW_ENDPOINT: "ftp://example.com" })).toThrow(
      /^INDEXNOW_ENDPOINT must be an absolute http\(s\) URL/,
    );
  });
});

describe("an item's addresses", () => {
  it("are its canonical detail pages: one in each language it is translated into, a job under its own kind", () => {
    expect(addressesOf({ type: "news", id: 12, langs: ["en"] })).toEqual(["/portal/message/news/12", "/portal/en/message/news/12"]);
    expect(addressesOf({ type: "notice", id: 3, langs: [] })).toEqual(["/portal/message/notice/3"]);
    expect(addressesOf({ type: "product", id: 1, langs: ["ja", "ar"] })).toEqual([
      "/portal/product/1",
      "/portal/ja/product/1",
      "/portal/ar/product/1",
    ]);
    expect(addressesOf({ type: "job", id: 8, jobKind: 2, langs: ["en"] })).toEqual(["/portal/job/school/8", "/portal/en/job/school/8"]);
    expect(addressesOfGone({ type: "job", id: 8 })).toEqual(["/portal/job/society/8", "/portal/job/school/8"]);
  });

  it("are found from a purge's detail tags and paths, in either language or as the API call, and from nothing else", () => {
    expect(itemOfTag("news:12")).toEqual({ type: "news", id: 12 });
    expect(itemOfTag("news:list")).toBeUndefined();
    expect(itemOfTag("product")).toBeUndefined();
    expect(itemOfPath("/portal/en/job/school/5")).toEqual({ type: "job", id: 5 });
    expect(itemOfPath("/portal/zh-tw/message/notice/7")).toEqual({ type: "notice", id: 7 });
    expect(itemOfPath("/portal/ar/product/2")).toEqual({ type: "product", id: 2 });
    expect(itemOfPath("/api/portal/service/service/4?x=1")).toEqual({ type: "service", id: 4 });
    expect(itemOfPath("/api/portal/product/service/4")).toBeUndefined();
    expect(itemOfPath("/portal/message/news/list.html")).toBeUndefined();
  });

  it("may be sent only under /portal/, never a noindex page", () => {
    expect(unsendablePath("/portal/message/news/1")).toBeUndefined();
    expect(unsendablePath("/portal/en/index.html")).toBeUndefined();
    expect(unsendablePath("/portal/search.html?q=a")).toBe("is a page search engines are told not to index");
    expect(unsendablePath("/portal/en/contact.html")).toBe("is a page search engines are told not to index");
    expect(unsendablePath("/portal/_preview?path=/portal/index.html")).toBe("is a page search engines are told not to index");
    expect(unsendablePath("/robots.txt")).toBe("is not under /portal/");
    expect(unsendablePath("/portal/../admin")).toBe("is not a canonical path");
  });

  it("is a page of the site in canonical form, however the address is written", () => {
    expect(unsendablePath("/portal/message/news/list.html?page=2")).toBeUndefined();
    expect(unsendablePath("/portal/en/job/school/4")).toBeUndefined();
    // Escapes of unreserved characters are read as the characters, as the site reads them.
    expect(unsendablePath("/portal/%73earch.html")).toBe("is a page search engines are told not to index");
    expect(unsendablePath("/portal/en/%63ontact.html")).toBe("is a page search engines are told not to index");
    expect(unsendablePath("/portal/%5Fpurge")).toBe("is a page search engines are told not to index");
    expect(unsendablePath("/portal/%5f%70review")).toBe("is a page search engines are told not to index");
    expect(unsendablePath("/portal/%2e%2e/admin")).toBe("is not a canonical path");
    expect(unsendablePath("/portal/message%2Fnews/1")).toBe("is not a canonical path");
    expect(unsendablePath("/portal/%70roduct/3")).toBe("is not in canonical form: give /portal/product/3");
    // A second language prefix and ?lang= are answered with a 301; the page is elsewhere.
    expect(unsendablePath("/portal/en/en/message/news/list.html")).toBe(
      "is redirected to /portal/en/message/news/list.html: give that address",
    );
    expect(unsendablePath("/portal/product/3?lang=en")).toBe("is redirected to the page's address in that language: give that address");
    // No page answers there, or not in that form.
    expect(unsendablePath("/portal/zh-CN/contact.html")).toBe("is not a page of the site");
    expect(unsendablePath("/portal/news.html")).toBe("is not a page of the site");
    expect(unsendablePath("/portal/")).toBe("is not a page of the site");
    expect(unsendablePath("/portal/product/x")).toBe("names no item: give a detail page with its item's number");
    expect(unsendablePath("/portal/en/product?id=3")).toBe("is not in canonical form: give /portal/en/product/3");
  });
});

describe("what an import changed", () => {
  const site = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../content/site.json"), "utf8")) as SiteFile;

  it("is nothing for the same site, every item for an empty database", () => {
    expect(changedItemsOf(site, structuredClone(site))).toEqual({ changed: [], gone: [] });
    const all = changedItemsOf(undefined, site).changed;
    expect(all).toHaveLength(site.news.length + site.notices.length + site.products.length + site.services.length + site.jobs.length);
  });

  it("is the items added, changed (in either language) or removed", () => {
    const after = structuredClone(site);
    (after.news[0] as { title: string }).title = "changed";
    after.notices.pop();
    after.products.push({ ...(after.products[0] as SiteFile["products"][number]), id: 999 });
    const english = after.translations?.en?.news?.find((item) => item.id === 30) as { title?: string };
    english.title = "changed in English";
    const { changed, gone } = changedItemsOf(site, after);
    expect(changed).toEqual([
      { type: "news", id: site.news[0]?.id, langs: [] },
      { type: "news", id: 30, langs: ["en"] },
      { type: "product", id: 999, langs: [] },
    ]);
    expect(gone).toEqual([{ type: "notice", id: site.notices.at(-1)?.id }]);
  });

  it("names every language of the site an item is translated into, and none the site does not speak", () => {
    const after = structuredClone(site);
    const japanese = { id: 30, title: "日本語のニュース" };
    // Beside the demo site's own Japanese and Arabic rows.
    const added = (lang: "ja" | "ar", row: { id: number; title: string }) => {
      const rows = after.translations?.[lang] as Record<string, unknown> | undefined;
      return { ...rows, news: [...((rows?.news as unknown[] | undefined) ?? []), row] };
    };
    after.translations = {
      ...after.translations,
      ja: added("ja", japanese),
      ar: added("ar", { id: 30, title: "خبر" }),
    } as SiteFile["translations"];
    const langs = ["zh-CN", "en", "ja"] as const;
    expect(changedItemsOf(site, after, Date.now(), langs).changed).toEqual([{ type: "news", id: 30, langs: ["en", "ja"] }]);
    // A translation into a language the site does not speak changes no page of it.
    expect(changedItemsOf(after, structuredClone(site), Date.now(), ["zh-CN", "en"]).changed).toEqual([]);
  });

  it("leaves out a draft and an item not yet due, and counts a published item made a draft as gone", () => {
    const now = Date.parse("2026-03-01T12:00:00Z");
    const after = structuredClone(site);
    const model = after.products[0] as SiteFile["products"][number];
    after.products.push({ ...model, id: 997, status: "draft" });
    after.products.push({ ...model, id: 998, publishAt: "2026-03-01T12:00:01Z" });
    after.products.push({ ...model, id: 999, publishAt: "2026-03-01T11:59:59Z" });
    (after.news[0] as { status?: string }).status = "draft";
    const { changed, gone } = changedItemsOf(site, after, now);
    expect(changed).toEqual([{ type: "product", id: 999, langs: [] }]);
    expect(gone).toEqual([{ type: "news", id: site.news[0]?.id }]);
  });
});

describe("Baidu's day", () => {
  it("starts again at midnight in China (16:00 UTC)", () => {
    expect(new Date(nextChinaMidnight(Date.parse("2026-03-01T15:59:59Z"))).toISOString()).toBe("2026-03-01T16:00:00.000Z");
    expect(new Date(nextChinaMidnight(Date.parse("2026-03-01T16:00:00Z"))).toISOString()).toBe("2026-03-02T16:00:00.000Z");
  });
});
