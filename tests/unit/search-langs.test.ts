/**
 * Search in each of the site's languages (docs/behaviour.md#search, "Matching"): the text and the
 * query folded alike, kana and hangul in pieces as Chinese is, words found by their start with
 * their accents dropped, Arabic with its vowel marks and alef forms unified; marks set on the
 * original text, accents and all; and an index written by the previous tokeniser built again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { foldCluster, foldsToItself } from "../../server/search/fold.ts";
import type { SearchDoc } from "../../server/search/index-file.ts";
import { markAll } from "../../server/search/marks.ts";
import { SearchIndex } from "../../server/search/search-index.ts";
import { indexTokens, normalise, normaliseMapped, queryTerms } from "../../server/search/text.ts";
import { MARK_END, MARK_START } from "../../shared/search.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "portal-search-langs-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const shown = (text: string) => text.replaceAll(MARK_START, "[").replaceAll(MARK_END, "]");

describe("folding", () => {
  it.each([
    ["Café Crème", "cafe creme"],
    ["cafe\u0301", "cafe"],
    ["Straße GROSSE ẞ", "strasse grosse ss"],
    ["Œuvre Æsir Øresund Łódź Þing", "oeuvre aesir oresund lodz thing"],
    ["İstanbul ılık", "istanbul ilik"],
    ["ＣＡＦＥ１２３", "cafe123"],
    ["Компания Ёлка ЙОД", "компания елка йод"],
    ["компа\u0301ния", "компания"],
    ["ΟΔΟΣ οδός Ἀθῆναι", "οδοσ οδοσ αθηναι"],
    ["ｶﾞｲﾄﾞ ｺｰﾋｰ", "ガイド コーヒー"],
    ["がっこう", "がっこう"],
    ["한국어 검색", "한국어 검색"],
    ["كِتَابٌ", "كتاب"],
    ["أحمد إسلام آمن ٱلكتاب", "احمد اسلام امن كتاب"],
    ["مكتبة مستشفى", "مكتبه مستشفي"],
    ["كـــتاب ١٢٣ ۴۵", "كتاب 123 45"],
    ["ﻛﺘﺎﺏ", "كتاب"],
    // The article before a word of two letters or more, however written; a shorter word, or one with a prefix, keeps it.
    ["الكِتَابُ الْجَدِيدُ", "كتاب جديد"],
    ["الم الكتاب", "الم كتاب"],
    ["وبالكتاب", "وبالكتاب"],
    ["مالكتاب", "مالكتاب"],
  ])("%s is searched as %s", (text, folded) => {
    expect(normalise(text)).toBe(folded);
    expect(normaliseMapped(text).out).toBe(folded);
  });

  it("takes its short path only for characters the whole folding leaves as they are", () => {
    for (let code = 0; code <= 0xffff; code++) {
      if (!foldsToItself(code)) continue;
      const char = String.fromCharCode(code);
      if (foldCluster(char) !== char) throw new Error(`U+${code.toString(16)} folds to ${foldCluster(char)}`);
    }
    // A kana with a combining voicing mark is one character, whichever way it is written.
    expect(normalise("ｶﾞか\u3099ﾊﾟ")).toBe("ガがパ");
  });

  it("maps every folded character back to the character it came from, accents and all", () => {
    const { out, map } = normaliseMapped("Ça\u0301 ｶﾞ ß");
    expect(out).toBe("ca ガ ss");
    expect(map).toEqual([0, 1, 3, 4, 6, 7, 7]);
    // Arabic's article goes: the word's first letter stands for the word's start.
    const arabic = normaliseMapped("ب الكتاب");
    expect(arabic.out).toBe("ب كتاب");
    expect(arabic.map).toEqual([0, 1, 2, 5, 6, 7]);
    // However long the text.
    const long = normaliseMapped(`${"ب ".repeat(200_000)}الكتاب`);
    expect(long.out.endsWith("ب كتاب")).toBe(true);
    expect(long.map.slice(-4)).toEqual([400_000, 400_003, 400_004, 400_005]);
  });
});

describe("tokens and queries", () => {
  it("cuts kana, kanji and hangul into overlapping pairs, the long-vowel mark within its word", () => {
    expect(indexTokens("コーヒー")).toBe("コー ーヒ ヒー コ ー ヒ ー");
    expect(indexTokens("東京タワー")).toBe("东京 京タ タワ ワー 东 京 タ ワ ー");
    expect(indexTokens("검색 엔진")).toBe("검색 엔진 검 색 엔 진");
    expect(queryTerms("ｺｰﾋｰ 東京")).toEqual([
      { text: "コーヒー", cjk: true },
      { text: "东京", cjk: true },
    ]);
  });

  it("keeps a one-letter word whole in any alphabet, and counts a word as one piece whatever its script", () => {
    expect(queryTerms("в Москве")).toEqual([
      { text: "в", cjk: false, whole: true },
      { text: "москве", cjk: false },
    ]);
    expect(queryTerms("Ü")).toEqual([{ text: "u", cjk: false, whole: true }]);
    expect(queryTerms("كِتَاب المَكتبة")).toEqual([
      { text: "كتاب", cjk: false },
      { text: "مكتبه", cjk: false },
    ]);
    expect(queryTerms("الكتاب كتاب")).toEqual([{ text: "كتاب", cjk: false }]);
  });
});

describe("marks in the original text", () => {
  it.each([
    ["Le café de Paris", "cafe", "Le [café] de Paris"],
    ["Le cafe\u0301 de Paris", "CAFÉ", "Le [cafe\u0301] de Paris"],
    ["Große Straße", "strasse", "Große [Straße]"],
    ["Компания растёт", "компан растет", "[Компания] [растёт]"],
    ["الكِتَابُ الجديد", "الكتاب", "[الكِتَابُ] الجديد"],
    ["الكِتَابُ الجديد", "كتاب", "[الكِتَابُ] الجديد"],
    ["كتاب الكتاب ٱلْكِتَاب", "كتاب", "[كتاب] [الكتاب] [ٱلْكِتَاب]"],
    ["ｺｰﾋｰを飲む", "コーヒー", "[ｺｰﾋｰ]を飲む"],
    ["서울 검색엔진", "검색", "서울 [검색]엔진"],
  ])("%s searched for %s is %s", (text, q, marked) => {
    expect(shown(markAll(text, queryTerms(q)))).toBe(marked);
  });
});

const doc = (id: number, title: string, body = ""): SearchDoc => ({
  type: "news",
  id,
  title,
  brief: "",
  body,
  date: "",
  url: `/portal/message/news/${id}`,
  fingerprint: "",
});

function indexOf(file: string, docs: SearchDoc[]): SearchIndex {
  const index = new SearchIndex(file);
  index.open();
  index.beginBuild();
  index.addToBuild(docs);
  index.finishBuild(0, 0);
  return index;
}

const ids = (index: SearchIndex, q: string) => index.search({ q, pageIndex: 0, pageMaxCount: 20 }).pageDataList.map((hit) => hit.id);

describe("the index in each language", () => {
  const docs = [
    doc(1, "東京の新しいコーヒー店", "がっこうの近くにあります"),
    doc(2, "서울 검색엔진 회사"),
    doc(3, "Le café de la Gare", "Crème brûlée"),
    doc(4, "Große Straße 12"),
    doc(5, "Компания растёт", "Новый офис"),
    doc(6, "الكِتَابُ الجَدِيدُ", "مكتبة أحمد"),
    doc(7, "Cafeteria news"),
  ];

  it("finds each language's words as its readers type them, and nothing that only shares letters", () => {
    const index = indexOf(path.join(dir, "search.db"), docs);
    expect(ids(index, "コーヒー")).toEqual([1]);
    expect(ids(index, "ｺｰﾋｰ")).toEqual([1]);
    expect(ids(index, "東京")).toEqual([1]);
    expect(ids(index, "がっこう")).toEqual([1]);
    expect(ids(index, "京都")).toEqual([]);
    expect(ids(index, "검색")).toEqual([2]);
    expect(ids(index, "검색엔진")).toEqual([2]);
    expect(ids(index, "엔진 서울")).toEqual([2]);
    expect(ids(index, "cafe").sort()).toEqual([3, 7]);
    expect(ids(index, "café gare")).toEqual([3]);
    expect(ids(index, "creme brulee")).toEqual([3]);
    expect(ids(index, "strasse")).toEqual([4]);
    expect(ids(index, "STRAßE")).toEqual([4]);
    expect(ids(index, "компан")).toEqual([5]);
    expect(ids(index, "РАСТЕТ")).toEqual([5]);
    expect(ids(index, "новыи")).toEqual([]);
    expect(ids(index, "الكتاب")).toEqual([6]);
    expect(ids(index, "كتاب")).toEqual([6]);
    expect(ids(index, "جديد")).toEqual([6]);
    expect(ids(index, "الكِتَابُ")).toEqual([6]);
    expect(ids(index, "مكتبه احمد")).toEqual([6]);
    expect(ids(index, "إحمد")).toEqual([6]);
    index.close();
  });

  it("builds an index the previous tokeniser wrote again from nothing, rather than answer from its tokens", () => {
    const file = path.join(dir, "search.db");
    indexOf(file, docs).close();
    // As the version before accents were folded left it: its tokens kept `café`, so `cafe` would miss.
    const old = new Database(file);
    old.prepare("UPDATE meta SET value = '3' WHERE key = 'version'").run();
    old.close();
    const index = new SearchIndex(file);
    index.open();
    expect(ids(index, "cafe")).toEqual([]);
    index.beginBuild();
    expect(index.buildIsFromScratch).toBe(true);
    index.addToBuild(docs);
    index.finishBuild(0, 0);
    expect(ids(index, "cafe").sort()).toEqual([3, 7]);
    index.close();
  });
});
