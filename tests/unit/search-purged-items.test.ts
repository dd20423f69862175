/**
 * What a purge asks of the search index (docs/behaviour.md#search, "Fresh and safe"): an item
 * named by its tag, its API path or its page in any language, and a kind or everything.
 */
import { describe, expect, it } from "vitest";
import type { PurgeRequest } from "../../server/purge/purge-request.ts";
import { purgedItems } from "../../server/search/purged-items.ts";

const request = (over: Partial<PurgeRequest>): PurgeRequest => ({ tags: [], paths: [], all: false, mode: "hard", ...over });
const named = (over: Partial<PurgeRequest>) => [...purgedItems(request(over)).items.keys()];

describe("a purge's items for the search index", () => {
  it("reads an item from its tag, its API path, and its page in the content language or any other", () => {
    expect(named({ tags: ["news:12", "job:3"] })).toEqual(["news:12", "job:3"]);
    expect(
      named({
        paths: [
          "/portal/message/notice/7",
          "/portal/ja/message/news/12?from=feed",
          "/portal/zh-tw/product/3",
          "/portal/ar/job/school/9",
          "/api/portal/service/service/4",
        ],
      }),
    ).toEqual(["notice:7", "news:12", "product:3", "job:9", "service:4"]);
  });

  it("names no item for a list, another page or a bad id, and says when a kind or everything is to be read again", () => {
    expect(named({ paths: ["/portal/ja/message/news/list.html", "/portal/about/index.html", "/portal/news/0"] })).toEqual([]);
    expect(purgedItems(request({ tags: ["news:12"] })).kinds).toBe(false);
    expect(purgedItems(request({ tags: ["news:list"] })).kinds).toBe(true);
    expect(purgedItems(request({ tags: ["product"] })).kinds).toBe(true);
    expect(purgedItems(request({ all: true })).kinds).toBe(true);
  });
});
