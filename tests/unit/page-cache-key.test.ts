import { describe, expect, it } from "vitest";
import { createPageKeyReader, pageRequestOf } from "../../server/pages/page-cache-key.ts";

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
const HEADERS = [{}, { cookie: "portal_lang=en" }, { cookie: "a=1; portal_lang=zh-CN; b=2" }, { cookie: "portal_lang=xx" }];

describe("page cache key on the hot path", () => {
  it("is the key pageRequestOf gives, for every URL and language cookie, however often a URL repeats", () => {
    const keyOf = createPageKeyReader("zh-CN");
    for (let round = 0; round < 2; round++) {
      for (const url of URLS) {
        for (const headers of HEADERS) {
          expect(keyOf(url, headers), `${url} ${JSON.stringify(headers)}`).toBe(pageRequestOf(url, headers, "zh-CN")?.key);
        }
      }
    }
  });

  it("keeps languages and pages apart, and ignores parameters pages do not read", () => {
    const keyOf = createPageKeyReader("zh-CN");
    const keys = new Set(URLS.slice(0, 4).flatMap((url) => HEADERS.slice(0, 2).map((headers) => keyOf(url, headers))));
    // /index.html ×2 languages, list page 2 ×2 languages (tracking parameter shares them), ?lang=en once.
    expect(keys.size).toBe(5);
    // A page number past what the list reads renders the first page: it shares that page's key, not one of its own.
    expect(keyOf(URLS[7] as string, {})).toBe(keyOf("/message/news/list.html", {}));
  });
});
