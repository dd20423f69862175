/**
 * The browser builds its data keys from the plain call table, without the BFF's
 * validation; these must be exactly the keys the BFF normalises a request to, or
 * hydration would miss the server's answers and the cache would split.
 */
import { describe, expect, it } from "vitest";
import { API_CALLS, callPath, matchCalls, normaliseCallQuery } from "../../shared/api-calls.ts";
import { CALL_TABLE, callKey, payloadKindOf } from "../../shared/call-table.ts";
import { keys } from "../../shared/data-keys.ts";

/** The key the BFF caches a GET of this key under. */
function normalised(key: string): string {
  const [path = "", search = ""] = key.split("?");
  const [match] = matchCalls(path);
  if (!match) throw new Error(`no call for ${path}`);
  const query = normaliseCallQuery(match.call, new URLSearchParams(search));
  if (!query.ok) throw new Error(query.error);
  return path + query.search;
}

const paging = [
  { page: 1, size: 20 },
  { page: 3, size: 50 },
  { page: 100_001, size: 100 },
];

describe("data keys", () => {
  it("are already in the BFF's normal form, for every key builder", () => {
    const built = [
      keys.syscfg(),
      keys.sysauthor(),
      keys.menus(),
      keys.indexHtml(),
      keys.slides(),
      keys.products(),
      keys.product(7),
      keys.services(),
      keys.service(Number.MAX_SAFE_INTEGER),
      keys.homeNews(),
      keys.homeNotices(),
      ...paging.flatMap((p) => [keys.newsList(p), keys.noticeList(p)]),
      keys.news(1),
      keys.notice(2),
      keys.partners(),
      keys.company(),
      keys.founders(),
      keys.milestones(0),
      keys.milestones(99_999),
      keys.jobTypes(),
      keys.jobAddrs(),
      keys.jobs(1, { page: 1, size: 20, jobTypeIds: [], jobAddrIds: [] }),
      keys.jobs(2, { page: 4, size: 10, jobTypeIds: [1, 5, 30], jobAddrIds: [2] }),
      keys.job(12),
      keys.readerCount(1, 3),
      keys.readerCount(2, 40),
    ];
    for (const key of built) expect(key).toBe(normalised(key));
    expect(keys.syscfg()).toBe("/sys/syscfg?imgScope=0");
    expect(keys.newsList({ page: 2, size: 50 })).toBe("/message/news/list?pageIndex=1&pageMaxCount=50");
    expect(keys.jobs(2, { page: 1, size: 20, jobTypeIds: [3, 4], jobAddrIds: [] })).toBe(
      "/job/job/list?jobTypeIds=3%2C4&pageIndex=0&pageMaxCount=20&type=2",
    );
  });

  it("fill every call's defaults as the BFF does", () => {
    for (const call of API_CALLS.filter((c) => c.method === "GET" && !Object.values(c.query).some((p) => p.required))) {
      const id = call.detail ? 9 : undefined;
      const path = callPath(call, id);
      const query = normaliseCallQuery(call, new URLSearchParams());
      expect(query.ok && path + query.search).toBe(callKey(call.id, { id }));
    }
    expect(() => callKey("readerCount", { query: { type: 1 } })).toThrow(/pid is required/);
    expect(() => callKey("nope")).toThrow(/unknown API call/);
  });

  it("tell the browser's fetcher each call's payload kind, as the BFF's matcher does", () => {
    for (const call of CALL_TABLE.filter((c) => c.method === "GET")) {
      const key = callKey(call.id, { id: call.detail ? 5 : undefined, query: { type: 1, pid: 1 } });
      expect(payloadKindOf(key), key).toBe(call.payload);
      expect(payloadKindOf(key)).toBe(matchCalls(key.split("?")[0] ?? "")[0]?.call.payload);
    }
    // A fixed path wins over an `{id}` pattern it would also fit; unknown paths have no kind.
    expect(payloadKindOf("/product/product/list")).toBe("list");
    expect(payloadKindOf("/message/news/abc")).toBe("object");
    expect(payloadKindOf("/message/news/1/2")).toBeUndefined();
    expect(payloadKindOf("/custom/classify/list")).toBeUndefined();
  });
});
