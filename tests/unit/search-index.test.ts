/**
 * The search index's rules apart from the demo content: ranking by where the match is,
 * newer first among equals, counts per type and paging, marks that never cut a character
 * or let content's own marks through, and builds that leave the last good index answering.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SearchDoc } from "../../server/search/index-file.ts";
import { markAll, snippetOf } from "../../server/search/marks.ts";
import { textOfHtml } from "../../server/search/read-content.ts";
import { SearchIndex } from "../../server/search/search-index.ts";
import { normaliseMapped, queryTerms } from "../../server/search/text.ts";
import { MARK_END, MARK_START } from "../../shared/search.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "portal-search-"));
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

const ids = (index: SearchIndex, q: string, more: { type?: "news" | "job"; pageIndex?: number; pageMaxCount?: number } = {}) =>
  index.search({ q, pageIndex: 0, pageMaxCount: 20, ...more }).pageDataList.map((hit) => hit.id);

const shown = (text: string) => text.replaceAll(MARK_START, "[").replaceAll(MARK_END, "]");

describe("ranking", () => {
  it("puts a match in the title above one in the brief, and that above one in the body, whatever the dates", () => {
    const index = indexOf([
      doc({ id: 1, body: "设备巡检报告", date: "20260101000000" }),
      doc({ id: 2, brief: "设备巡检报告", date: "20250101000000" }),
      doc({ id: 3, title: "设备巡检", date: "20240101000000" }),
    ]);
    expect(ids(index, "巡检")).toEqual([3, 2, 1]);
    index.close();
  });

  it("puts the newer first among equal matches", () => {
    const index = indexOf([
      doc({ id: 1, title: "春节放假通知", date: "20240101000000" }),
      doc({ id: 2, title: "春节放假通知", date: "20260101000000" }),
      doc({ id: 3, title: "春节放假通知", date: "20250101000000" }),
    ]);
    expect(ids(index, "春节")).toEqual([2, 3, 1]);
    index.close();
  });

  it("counts every type whatever the type asked for, and pages as the list pages do", () => {
    const docs = Array.from({ length: 25 }, (_, i) =>
      doc({ id: i + 1, title: `视觉检测 ${i}`, date: `2024${String(i + 10).padStart(2, "0")}` }),
    );
    const index = indexOf([...docs, doc({ id: 99, type: "job", title: "视觉算法工程师" })]);
    const narrowed = index.search({ q: "视觉", type: "job", pageIndex: 0, pageMaxCount: 20 });
    expect(narrowed.facets).toEqual({ news: 25, notice: 0, product: 0, service: 0, job: 1 });
    expect(narrowed.totalCount).toBe(1);
    const second = index.search({ q: "视觉", type: "news", pageIndex: 1, pageMaxCount: 20 });
    expect([second.totalCount, second.totalPageCount, second.pageDataList.length]).toEqual([25, 2, 5]);
    index.close();
  });
});

describe("marks and snippets", () => {
  it("marks the match in the original text, Traditional where Simplified was searched for, and whole Latin words", () => {
    expect(shown(markAll("張學友先生在大會上分享", queryTerms("学友")))).toBe("張[學友]先生在大會上分享");
    expect(shown(markAll("青禾 Robotics R2", queryTerms("robo")))).toBe("青禾 [Robotics] R2");
    expect(shown(markAll("ＪＡＶＡ开发", queryTerms("java")))).toBe("[ＪＡＶＡ]开发");
  });

  it("drops the marks content carries, so only matches are marked", () => {
    const marked = markAll(`a${MARK_START}b${MARK_END} 安全`, queryTerms("安全"));
    expect(shown(marked)).toBe("ab [安全]");
  });

  it("never cuts a surrogate pair, an emoji sequence or a letter and its accent", () => {
    const long = "👨‍👩‍👧😀é".repeat(40);
    for (let shift = 0; shift < 12; shift++) {
      const text = `${"😀".repeat(shift)}${long}安全${long}`;
      const snippet = snippetOf([{ text, ...withNorm(text) }], queryTerms("安全"));
      const plain = snippet.replace(/[\uE000\uE001…]/gu, "");
      // No lone half of a surrogate pair.
      expect(plain).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      expect(text.includes(plain)).toBe(true);
      const segments = [...new Intl.Segmenter("und", { granularity: "grapheme" }).segment(plain)].map((s) => s.segment);
      expect(segments.every((s) => ["👨‍👩‍👧", "😀", "é", "安", "全"].includes(s))).toBe(true);
      expect(shown(snippet)).toContain("[安全]");
    }
  });

  it("cuts a snippet around the first match of the brief or else the body, and starts at the text when only the title matched", () => {
    const body = `${"前文".repeat(100)}中国农业发展银行${"后文".repeat(100)}`;
    const snippet = snippetOf(
      [
        { text: "", ...withNorm("") },
        { text: body, ...withNorm(body) },
      ],
      queryTerms("农业"),
    );
    expect(shown(snippet)).toMatch(/^…(前文)+中国\[农业\]发展银行(后文)+…$/u);
    expect(snippetOf([{ text: "简介文字", ...withNorm("简介文字") }], queryTerms("标题"))).toBe("简介文字");
  });

  it("reads HTML as its text: tags dropped, entities decoded, blocks apart", () => {
    expect(textOfHtml("<p>安装<strong>简单</strong></p><p>A&amp;B&#x4e2d;&nbsp;x</p><script>bad()</script>")).toBe("安装简单 A&B中 x");
  });
});

const withNorm = (text: string) => {
  const { out, map } = normaliseMapped(text);
  return { norm: out, aligned: out.length === text.length && map.every((at, i) => at === i) };
};

describe("building", () => {
  it("keeps the last good index answering through a build that fails half-way, and through one a crash left behind", () => {
    const file = path.join(dir, "search.db");
    const index = indexOf([doc({ id: 1, title: "旧的内容" })]);
    index.beginBuild();
    index.addToBuild([doc({ id: 2, title: "新的内容" })]);
    // The old index answers while the new one is written, and after it is dropped.
    expect(ids(index, "旧的")).toEqual([1]);
    index.abandonBuild();
    expect(ids(index, "旧的")).toEqual([1]);
    expect(ids(index, "新的")).toEqual([]);
    index.close();

    // A process that died while building left its file; the next start removes it and answers from the last good one.
    writeFileSync(`${file}.build-999999999`, "half a database");
    const reopened = new SearchIndex(file);
    reopened.open();
    expect(ids(reopened, "旧的")).toEqual([1]);
    expect(readdirSync(dir)).toEqual(["search.db"]);
    reopened.close();
  });

  it("answers from the first build as far as it has come when there is no index yet, and keeps changes made during a build", () => {
    const index = new SearchIndex(path.join(dir, "search.db"));
    index.open();
    index.beginBuild();
    index.addToBuild([doc({ id: 1, title: "第一条新闻" })]);
    expect(ids(index, "第一")).toEqual([1]);
    index.put(doc({ id: 2, title: "清除后重读的新闻" }));
    index.finishBuild(0, 0);
    expect(ids(index, "重读")).toEqual([2]);
    expect(existsSync(path.join(dir, "search.db"))).toBe(true);
    index.close();
  });
});
