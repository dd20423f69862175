/**
 * What bounds a search's cost (docs/behaviour.md#search, "Bounded"): a one-letter Latin
 * word is a whole word, a query reads at most QUERY_PIECES pieces of the index, and a query
 * matching more than SCORED_MATCHES items orders each group newest first.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SCORED_MATCHES, type SearchDoc } from "../../server/search/index-file.ts";
import { SearchIndex } from "../../server/search/search-index.ts";
import { QUERY_PIECES, queryTerms } from "../../server/search/text.ts";
import { MARK_END, MARK_START } from "../../shared/search.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "portal-search-bounds-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const doc = (over: Partial<SearchDoc> & Pick<SearchDoc, "id">): SearchDoc => ({
  type: "news",
  title: "",
  brief: "",
  body: "",
  date: "",
  url: `/portal/message/news/${over.id}`,
  fingerprint: "",
  ...over,
});

function indexOf(docs: SearchDoc[]): SearchIndex {
  const index = new SearchIndex(path.join(dir, "search.db"));
  index.open();
  index.beginBuild();
  index.addToBuild(docs);
  index.finishBuild(0, 0);
  return index;
}

const ids = (index: SearchIndex, q: string, pageMaxCount = 20) =>
  index.search({ q, pageIndex: 0, pageMaxCount }).pageDataList.map((hit) => hit.id);

describe("bounded queries", () => {
  it("reads at most QUERY_PIECES pieces: later terms are left out, a long Chinese run is cut", () => {
    expect(queryTerms("a b c d e f g h i j k l m n o p q r s t u v w x y z").map((t) => t.text)).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect(QUERY_PIECES).toBe(6);
    // A run of n characters is n - 1 pairs: seven characters fill the six pieces.
    expect(queryTerms("中国农业发展银行贷款支持").map((t) => t.text)).toEqual(["中国农业发展银"]);
    expect(queryTerms("java 中国农业发展银行").map((t) => t.text)).toEqual(["java", "中国农业发展"]);
  });

  it("finds a one-letter Latin word as a word, not as the start of every word it begins, and marks only it", () => {
    const index = indexOf([doc({ id: 1, title: "C 语言工程师" }), doc({ id: 2, title: "Cloud 平台工程师" })]);
    expect(ids(index, "c")).toEqual([1]);
    expect(ids(index, "Ｃ 工程师")).toEqual([1]);
    expect(ids(index, "cl")).toEqual([2]);
    expect(index.search({ q: "c 工程师", pageIndex: 0, pageMaxCount: 20 }).pageDataList[0]?.title).toBe(
      `${MARK_START}C${MARK_END} 语言${MARK_START}工程师${MARK_END}`,
    );
    index.close();
  });

  it("orders a query of more than SCORED_MATCHES matches newest first within each group, titles still first, with counts and pages whole", () => {
    const many = Array.from({ length: SCORED_MATCHES + 20 }, (_, i) =>
      doc({
        id: i + 1,
        body: `设备${"巡检".repeat(1 + (i % 7))}`,
        date: `2025${String(1 + (i % 12)).padStart(2, "0")}01${String(100000 + i)}`,
      }),
    );
    const index = indexOf([...many, doc({ id: 9000, title: "巡检机器人", date: "20200101000000" })]);
    const result = index.search({ q: "巡检", pageIndex: 0, pageMaxCount: 5 });
    expect(result.totalCount).toBe(SCORED_MATCHES + 21);
    const newest = [...many].sort((a, b) => b.date.localeCompare(a.date)).map((d) => d.id);
    expect(result.pageDataList.map((hit) => hit.id)).toEqual([9000, ...newest.slice(0, 4)]);
    const second = index.search({ q: "巡检", pageIndex: 1, pageMaxCount: 5 }).pageDataList.map((hit) => hit.id);
    expect(second).toEqual(newest.slice(4, 9));
    index.close();
  });
});
