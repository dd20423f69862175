/**
 * The search test set: queries a visitor types, in Chinese and English, against the demo
 * site's content (content/site.json), with what each should find. It holds the cases other
 * engines miss (a word inside a longer one, one character, Traditional for Simplified,
 * full-width letters, mixed scripts) and typos that must find nothing. The score (recall,
 * and how often the expected first result is first) is printed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDemoSite } from "../../harness/page-samples.ts";
import { docOf, type JobNames } from "../../server/search/read-content.ts";
import { SearchIndex } from "../../server/search/search-index.ts";
import type { SearchResult, SearchType } from "../../shared/search.ts";

interface Case {
  q: string;
  /** Items that must be found (`type:id`). */
  finds?: string[];
  /** The item that must come first. */
  first?: string;
  /** Nothing at all may be found. */
  none?: true;
  /** Items that must not be found. */
  not?: string[];
}

const CASES: Case[] = [
  // A word inside a longer word: what word-segmenting engines miss.
  { q: "简单", first: "product:2" },
  { q: "处理", finds: ["product:7", "news:25"] },
  { q: "待处理", first: "product:7" },
  { q: "农业", first: "news:30" },
  { q: "农业发展", first: "news:30" },
  { q: "中国农业发展银行", first: "news:30" },
  { q: "安全", finds: ["job:1", "product:7"] },
  { q: "安全管理器", first: "job:1" },
  { q: "java 安全管理器", first: "job:1" },
  { q: "视检", finds: ["product:1", "news:13"] },
  // Traditional for Simplified, and Simplified for Traditional.
  { q: "處理", finds: ["product:7", "news:25"] },
  { q: "銀行", first: "news:30" },
  { q: "學友", first: "news:21" },
  { q: "学友", first: "news:21" },
  { q: "张学友", first: "news:21" },
  { q: "張學友", first: "news:21" },
  { q: "產線良品率", first: "news:21" },
  { q: "數位孿生", none: true },
  { q: "數字孿生", first: "product:6" },
  // One character.
  { q: "贷", first: "news:30" },
  { q: "銀", first: "news:30" },
  { q: "孪", finds: ["product:6"] },
  // Full-width and half-width forms.
  { q: "ＪＡＶＡ", first: "job:1" },
  { q: "Ｒｏｂｏ", first: "product:3" },
  { q: "ＥＧ－５００", first: "product:2" },
  // Latin: any case, by word prefix.
  { q: "robo", first: "product:3" },
  { q: "Robotics", first: "product:3" },
  { q: "ROBOTICS", first: "product:3" },
  { q: "java", first: "job:1" },
  { q: "saas", first: "notice:2", finds: ["product:7"] },
  { q: "modbus", finds: ["product:1"] },
  { q: "ava", not: ["job:1"] },
  // Mixed scripts: every term is needed.
  { q: "Java 安全", first: "job:1" },
  { q: "Java安全", first: "job:1" },
  { q: "java 后端", first: "job:1" },
  { q: "Robotics 巡检", first: "product:3" },
  { q: "robo 简单", none: true },
  // Common queries, by title first.
  // Two notices alike in their titles: the newer first.
  { q: "春节", first: "notice:21", finds: ["notice:1"] },
  { q: "融资", finds: ["news:1", "news:24"] },
  { q: "边缘计算网关", first: "product:2" },
  { q: "数字孪生", first: "product:6" },
  { q: "越南", first: "news:27" },
  { q: "白皮书", first: "news:19" },
  { q: "巡检机器人", first: "product:3" },
  { q: "公司", finds: ["news:17", "notice:24"] },
  // Typos and near misses: nothing.
  { q: "安装简答", none: true },
  { q: "robotix", none: true },
  { q: "jawa", none: true },
  { q: "农夜发展", none: true },
  { q: "张学有", none: true },
  { q: "禾数智青", none: true },
];

const site = readDemoSite();
let dir: string;
let index: SearchIndex;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "portal-search-"));
  index = new SearchIndex(path.join(dir, "search.db"));
  index.open();
  const jobNames: JobNames = {
    types: new Map(site.jobTypes.map((t) => [t.id, t.name])),
    addrs: new Map(site.jobAddrs.map((a) => [a.id, a.name])),
  };
  const lists: [SearchType, readonly object[]][] = [
    ["news", site.news],
    ["notice", site.notices],
    ["product", site.products],
    ["service", site.services],
    ["job", site.jobs],
  ];
  index.beginBuild();
  for (const [type, items] of lists) {
    index.addToBuild(items.flatMap((item) => docOf(type, item as Record<string, unknown>, jobNames) ?? []));
  }
  index.finishBuild(0, 0);
});

afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
  printScore();
});

const found = (result: SearchResult) => result.pageDataList.map((hit) => `${hit.type}:${hit.id}`);
const score = { expected: 0, recalled: 0, firsts: 0, firstsRight: 0, nones: 0, nonesRight: 0 };

function printScore() {
  const pct = (a: number, b: number) => `${a}/${b} (${((a / Math.max(1, b)) * 100).toFixed(0)}%)`;
  console.log(
    `search test set, ${CASES.length} queries: recall ${pct(score.recalled, score.expected)}, first result right ${pct(score.firstsRight, score.firsts)}, nothing found where nothing should be ${pct(score.nonesRight, score.nones)}`,
  );
}

describe("the search test set on the demo site", () => {
  it("holds at least 40 queries in both languages", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(CASES.some((c) => /^[\x20-\x7e]+$/.test(c.q))).toBe(true);
  });

  it.each(CASES)("$q", (c) => {
    const result = index.search({ q: c.q, pageIndex: 0, pageMaxCount: 100 });
    const ids = found(result);
    const wanted = [...(c.finds ?? []), ...(c.first ? [c.first] : [])];
    score.expected += wanted.length;
    score.recalled += wanted.filter((id) => ids.includes(id)).length;
    if (c.first) {
      score.firsts++;
      if (ids[0] === c.first) score.firstsRight++;
    }
    if (c.none) {
      score.nones++;
      if (ids.length === 0) score.nonesRight++;
    }
    for (const id of wanted) expect(ids, `${c.q} finds ${id}`).toContain(id);
    if (c.first) expect(ids[0], `${c.q} first`).toBe(c.first);
    if (c.none) expect(ids).toEqual([]);
    for (const id of c.not ?? []) expect(ids).not.toContain(id);
    expect(result.totalCount).toBe(ids.length);
  });
});
