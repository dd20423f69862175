import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Router, useLocation, useSearch } from "wouter";
import { createPageKeyReader, pageRequestOf, singlePrefixRedirectOf } from "../../server/pages/page-cache-key.ts";
import { routerTextOf } from "../../server/pages/router-text.ts";

const URLS = [
  "/index.html",
  "/message/news/list.html?page=2&size=20",
  "/message/news/list.html?size=20&page=2&utm_source=mail",
  "/message/news/list.html?page=2&lang=en",
  "/message/news/list.html?lang=fr&page=2",
  "/job/society/index.html?jobTypeIds=3&jobTypeIds=1&jobAddrIds=2",
  "/message/news?id=7",
  `/message/news/list.html?page=${"9".repeat(300)}`,
];

describe("page cache key on the hot path", () => {
  it("is the key pageRequestOf gives, for every URL, however often a URL repeats; none for a URL answered by a redirect", () => {
    const keyOf = createPageKeyReader();
    for (let round = 0; round < 2; round++) {
      for (const url of URLS) {
        const page = pageRequestOf(url);
        expect(keyOf(url), url).toBe(page?.redirect ? undefined : page?.key);
      }
    }
  });

  it("keeps languages and pages apart, and ignores parameters pages do not read", () => {
    const keyOf = createPageKeyReader();
    const keys = new Set(
      ["/index.html", "/en/index.html", ...URLS.slice(1, 3), "/en/message/news/list.html?page=2"].map((url) => keyOf(url)),
    );
    // /index.html ×2 languages, list page 2 ×2 languages (the tracking parameter shares one).
    expect(keys.size).toBe(4);
    // A page number past what the list reads renders the first page: it shares that page's key, not one of its own.
    expect(keyOf(URLS[7] as string)).toBe(keyOf("/message/news/list.html"));
    // An unknown language is a parameter like any other the page does not read.
    expect(keyOf(URLS[4] as string)).toBe(keyOf("/message/news/list.html?page=2"));
  });

  it("answers ?lang= with the page's address in that language, its query normalised", () => {
    expect(pageRequestOf("/message/news/list.html?page=2&lang=en&utm=x")?.redirect).toBe("/portal/en/message/news/list.html?page=2");
    expect(pageRequestOf("/en/message/news/12?lang=zh-CN")?.redirect).toBe("/portal/message/news/12");
    expect(pageRequestOf("/message/news?id=12&lang=en")?.redirect).toBe("/portal/en/message/news?id=12");
    expect(pageRequestOf("/index.html?lang=en")?.redirect).toBe("/portal/en/index.html");
    expect(pageRequestOf("/index.html?lang=fr")?.redirect).toBeUndefined();
  });

  it("names no page, and no key, at an address whose language prefix comes again: a 301 to it once", () => {
    const keyOf = createPageKeyReader();
    const cases: [string, string][] = [
      ["/en/en/index.html", "/portal/en/index.html"],
      ["/en/en/message/news/1?utm=x", "/portal/en/message/news/1?utm=x"],
      ["/en/en/en/", "/portal/en/"],
      ["/en/en/", "/portal/en/"],
      ["/en/en", "/portal/en/"],
      ["/%65n/en/index.html", "/portal/en/index.html"],
      ["/en/%65n/about/index.html", "/portal/en/about/index.html"],
    ];
    for (const [url, location] of cases) {
      expect(pageRequestOf(url), url).toBeNull();
      expect(keyOf(url), url).toBeUndefined();
      expect(singlePrefixRedirectOf(url), url).toBe(location);
    }
    // An encoded separator is no separator, here as in the browser's router: no prefix, no page, nothing to fix.
    for (const url of ["/en%2Fen/index.html", "/en/en%2Findex.html", "/index.html", "/en/index.html", "/message/en/1"]) {
      expect(singlePrefixRedirectOf(url), url).toBeUndefined();
    }
    expect(pageRequestOf("/en/index.html")?.key).toBe("en /index.html");
  });

  it("is the same whatever cookie or header comes with the request: it is worked out from the URL alone", () => {
    expect(pageRequestOf("/en/about/index.html")).toMatchObject({ lang: "en", path: "/en/about/index.html", key: "en /about/index.html" });
  });
});

describe("page cache key of URLs written differently", () => {
  const keyOf = createPageKeyReader();
  const key = (url: string) => keyOf(url);

  it("follows what the page reads, not the URL's text: separators inside a value are part of that value", () => {
    // "3&size=50" is not a page number: the page renders page 1 at size 20, not page 3 at size 50.
    expect(key("/message/news/list.html?page=3%26size%3D50")).toBe(key("/message/news/list.html"));
    expect(key("/message/news/list.html?page=3%26size%3D50")).not.toBe(key("/message/news/list.html?page=3&size=50"));
    // "1|2" is no id list: the unfiltered list, not types 1 and 2.
    expect(key("/job/society/index.html?jobTypeIds=1|2")).toBe(key("/job/society/index.html"));
    expect(key("/job/society/index.html?jobTypeIds=1&jobTypeIds=2")).not.toBe(key("/job/society/index.html?jobTypeIds=1|2"));
  });

  it("is one key for every spelling of the same values", () => {
    const same = (urls: string[]) => expect(new Set(urls.map(key)).size, urls.join(" ")).toBe(1);
    same([
      "/job/society/index.html?jobTypeIds=1&jobTypeIds=2",
      "/job/society/index.html?jobTypeIds=2,1",
      "/job/society/index.html?jobTypeIds=1%2C2&jobTypeIds=1",
      "/job/society/index.html?jobTypeIds=1,2,x&page=1&size=20&id=4",
    ]);
    same([
      "/message/news/list.html",
      "/message/news/list.html?page=03",
      "/message/news/list.html?page=1&size=20&size=7",
      `/message/news/list.html?page=${"9".repeat(300)}`,
    ]);
    same(["/message/news?id=7", "/message/news?id=7&page=2", "/message/news?id=%37"]);
  });

  it("keeps the request path: a page is never served for a path that is not the one it was rendered for", () => {
    // The feed answers /message/news/rss.xml before the pages do; the not-found page of rss%2Exml must not take its place.
    expect(key("/message/news/rss%2Exml")).not.toBe(key("/message/news/rss.xml"));
    expect(key("/message/news/12")).not.toBe(key("/message/news?id=12"));
  });
});

/** Writes what the router's hooks read into `read`. */
function RouterProbe({ read }: { read: [string, string] }) {
  const [location] = useLocation();
  read[0] = location;
  read[1] = useSearch();
  return null;
}

describe("a page URL as the client router reads it", () => {
  /** What wouter's own hooks give for a location, rendered on the server as the page is. */
  function routerReads(path: string, search: string): [string, string] {
    const read: [string, string] = ["", ""];
    const props = { base: "/portal", ssrPath: `/portal${path}`, ssrSearch: search, children: createElement(RouterProbe, { read }) };
    renderToString(createElement(Router, props));
    return read;
  }

  it("is what the server parses, so both match and load the same page", () => {
    for (const [path, search] of [
      ["/message/news/%31%32", "page=%32"],
      ["/message/news/%E4%B8%AD", "page=%2532&size=%E4"],
      ["/message/news/rss%2Exml", "jobTypeIds=1%2C2%26page%3D3"],
      ["/about/index.html", "lang=%65n&x=%"],
    ] as const) {
      expect(routerReads(path, search), `${path}?${search}`).toEqual([routerTextOf(path), routerTextOf(search)]);
    }
    // So /x/%31%32 is the page of item 12 on the server too, not a not-found page the browser would show as item 12.
    expect(pageRequestOf("/message/news/%31%32")?.match).toMatchObject({ route: { id: "newsDetail" }, id: 12 });
  });
});
