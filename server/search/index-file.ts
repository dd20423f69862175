/** One search index file: the items (as shown, and normalised) and an FTS5 table of their tokens (docs/decisions/0010-search-index-of-our-own.md). */
import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import { SEARCH_TYPES, type SearchType } from "../../shared/search.ts";
import { openIndexDb } from "./index-schema.ts";
import { indexTokens, normaliseMapped } from "./text.ts";

/** A rowid holds its type, so counts per type read the FTS5 table alone, never a join per match. */
const TYPE_SPAN = 2 ** 40;
const typeRange = (type: SearchType) => {
  const lo = TYPE_SPAN * (SEARCH_TYPES.indexOf(type) + 1);
  return { lo, hi: lo + TYPE_SPAN - 1 };
};
/**
 * A query matching more items than this is not ranked by relevance within each tier, but
 * newest first: scoring every match is what made broad queries cost tens of ordinary ones.
 */
export const SCORED_MATCHES = 500;
const MAX_BODY_CHARS = 20_000;
const WEIGHTS = "10.0, 3.0, 1.0";

export interface SearchDoc {
  type: SearchType;
  id: number;
  title: string;
  brief: string;
  body: string;
  date: string;
  url: string;
  /** Of its list entry: an unchanged item's detail is not read again. */
  fingerprint: string;
}

interface StoredDoc extends SearchDoc {
  normBrief: string;
  normBody: string;
  /** Bits 1 (brief) and 2 (body): the normalised text has the text's indexes. */
  aligned: number;
}

interface Ranked {
  rowid: number;
  /** 0: every term in the title, 1: in the brief, 2: elsewhere. */
  tier: number;
  score: number;
}

function normalisedOf(text: string): { norm: string; aligned: boolean } {
  const { out, map } = normaliseMapped(text);
  return { norm: out, aligned: out.length === text.length && map.every((at, i) => at === i) };
}

export class IndexFile {
  readonly path: string;
  readonly db: Database.Database;
  private readonly statements;

  /** Throws when the file is not an index of this version. */
  constructor(path: string, options: { building?: boolean; cacheKb?: number } = {}) {
    this.path = path;
    this.db = openIndexDb(path, options.building === true, options.cacheKb);
    this.statements = {
      find: this.db.prepare("SELECT rowid FROM docs WHERE type = ? AND item = ?").pluck(),
      fingerprint: this.db.prepare("SELECT fingerprint FROM docs WHERE type = ? AND item = ?").pluck(),
      doc: this.db.prepare("SELECT * FROM docs WHERE type = ? AND item = ?"),
      insertDoc: this.db.prepare(
        `INSERT INTO docs (rowid, type, item, title, brief, body, norm_brief, norm_body, aligned, date, url, fingerprint, hash)
         VALUES (@rowid, @type, @id, @title, @brief, @body, @normBrief, @normBody, @aligned, @date, @url, @fingerprint, @hash)`,
      ),
      updateDoc: this.db.prepare(
        `UPDATE docs SET title = @title, brief = @brief, body = @body, norm_brief = @normBrief, norm_body = @normBody,
         aligned = @aligned, date = @date, url = @url, fingerprint = @fingerprint, hash = @hash WHERE rowid = @rowid`,
      ),
      insertFts: this.db.prepare("INSERT INTO fts (rowid, title, brief, body) VALUES (?, ?, ?, ?)"),
      deleteFts: this.db.prepare("DELETE FROM fts WHERE rowid = ?"),
      insertHeads: this.db.prepare("INSERT INTO heads (rowid, title, brief) VALUES (?, ?, ?)"),
      deleteHeads: this.db.prepare("DELETE FROM heads WHERE rowid = ?"),
      matches: this.db.prepare("SELECT rowid FROM fts WHERE fts MATCH ?").pluck(),
      scores: this.db.prepare(`SELECT rowid, bm25(fts, ${WEIGHTS}) FROM fts WHERE fts MATCH ? AND rowid BETWEEN ? AND ?`).raw(),
      allDates: this.db.prepare("SELECT rowid, date FROM docs").raw(),
      headMatches: this.db.prepare("SELECT rowid FROM heads WHERE heads MATCH ?").pluck(),
      deleteDoc: this.db.prepare("DELETE FROM docs WHERE rowid = ?"),
      count: this.db.prepare("SELECT count(*) FROM docs").pluck(),
      hash: this.db.prepare("SELECT hash FROM docs WHERE type = ? AND item = ?").pluck(),
      setFingerprint: this.db.prepare("UPDATE docs SET fingerprint = ? WHERE type = ? AND item = ?"),
      keys: this.db.prepare("SELECT type, item FROM docs").raw(),
      lastOfType: this.db.prepare("SELECT rowid FROM docs WHERE rowid BETWEEN ? AND ? ORDER BY rowid DESC LIMIT 1").pluck(),
      byRowids: this.db.prepare("SELECT rowid, * FROM docs WHERE rowid IN (SELECT value FROM json_each(?))"),
    };
  }

  /**
   * Writes `doc` unless the index holds the same text already (its hash), so content that did
   * not change is not tokenised again; says whether it was new or changed.
   */
  putIfChanged(doc: SearchDoc): "new" | "changed" | undefined {
    const held = this.statements.hash.get(doc.type, doc.id) as string | undefined;
    if (held !== undefined && held === hashOf(doc)) {
      if (this.fingerprintOf(doc.type, doc.id) !== doc.fingerprint) this.statements.setFingerprint.run(doc.fingerprint, doc.type, doc.id);
      return undefined;
    }
    this.put(doc);
    return held === undefined ? "new" : "changed";
  }

  /** Every item held, as `type:id`. */
  keys(): { type: SearchType; id: number }[] {
    return (this.statements.keys.all() as [SearchType, number][]).map(([type, id]) => ({ type, id }));
  }

  put(doc: SearchDoc): void {
    const body = doc.body.length > MAX_BODY_CHARS ? doc.body.slice(0, MAX_BODY_CHARS) : doc.body;
    const brief = normalisedOf(doc.brief);
    const normBody = normalisedOf(body);
    const row = {
      ...doc,
      body,
      normBrief: brief.norm,
      normBody: normBody.norm,
      aligned: (brief.aligned ? 1 : 0) | (normBody.aligned ? 2 : 0),
      hash: hashOf(doc),
    };
    const tokens = [indexTokens(doc.title), indexTokens(doc.brief), indexTokens(body)] as const;
    const existing = this.statements.find.get(doc.type, doc.id) as number | undefined;
    if (existing === undefined) {
      const { lo, hi } = typeRange(doc.type);
      const rowid = ((this.statements.lastOfType.get(lo, hi) as number | undefined) ?? lo - 1) + 1;
      if (rowid > hi) throw new Error(`search index: no room for another ${doc.type}`);
      this.statements.insertDoc.run({ ...row, rowid });
      this.dates?.set(rowid, dateNumber(doc.date));
      this.statements.insertFts.run(rowid, ...tokens);
      this.statements.insertHeads.run(rowid, tokens[0], tokens[1]);
    } else {
      this.statements.deleteFts.run(existing);
      this.statements.deleteHeads.run(existing);
      this.statements.updateDoc.run({ ...row, rowid: existing });
      this.dates?.set(existing, dateNumber(doc.date));
      this.statements.insertFts.run(existing, ...tokens);
      this.statements.insertHeads.run(existing, tokens[0], tokens[1]);
    }
  }

  remove(type: SearchType, id: number): void {
    const existing = this.statements.find.get(type, id) as number | undefined;
    if (existing === undefined) return;
    this.statements.deleteFts.run(existing);
    this.statements.deleteHeads.run(existing);
    this.statements.deleteDoc.run(existing);
    this.dates?.delete(existing);
  }

  batch(apply: () => void): void {
    this.db.transaction(apply)();
  }

  fingerprintOf(type: SearchType, id: number): string | undefined {
    return this.statements.fingerprint.get(type, id) as string | undefined;
  }

  docOf(type: SearchType, id: number): SearchDoc | undefined {
    const row = this.statements.doc.get(type, id) as Record<string, unknown> | undefined;
    return row ? toSearchDoc(row) : undefined;
  }

  count(): number {
    return this.statements.count.get() as number;
  }

  /**
   * The counts per type and one page of the matches, in the order of docs/behaviour.md#search:
   * the matches are found once, and relevance is worked out only for those the page can hold.
   */
  search(
    match: { all: string; title: string; brief: string },
    type: SearchType | undefined,
    limit: number,
    offset: number,
  ): { facets: Map<string, number>; ranked: Ranked[] } {
    const rowids = this.statements.matches.all(match.all) as number[];
    const counts = new Array<number>(SEARCH_TYPES.length + 1).fill(0);
    const range = type ? typeRange(type) : { lo: 0, hi: Number.MAX_SAFE_INTEGER };
    const inType: number[] = [];
    for (const rowid of rowids) {
      const t = Math.floor(rowid / TYPE_SPAN);
      counts[t] = (counts[t] ?? 0) + 1;
      if (rowid >= range.lo && rowid <= range.hi) inType.push(rowid);
    }
    const facets = new Map(SEARCH_TYPES.map((name, i) => [name as string, counts[i + 1] ?? 0]));
    if (inType.length === 0) return { facets, ranked: [] };
    const inTitle = new Set(this.statements.headMatches.all(match.title) as number[]);
    const inBrief = new Set(this.statements.headMatches.all(match.brief) as number[]);
    const scores =
      inType.length <= SCORED_MATCHES
        ? new Map(this.statements.scores.all(match.all, range.lo, range.hi) as [number, number][])
        : new Map<number, number>();
    const dates = this.datesByRowid();
    const candidates = inType.map((rowid) => ({
      rowid,
      tier: inTitle.has(rowid) ? 0 : inBrief.has(rowid) ? 1 : 2,
      score: scores.get(rowid) ?? 0,
      date: dates.get(rowid) ?? 0,
    }));
    const ranked = topOf(
      candidates,
      offset + limit,
      (a, b) => a.tier - b.tier || a.score - b.score || b.date - a.date || b.rowid - a.rowid,
    ).slice(offset);
    return { facets, ranked: ranked.map(({ rowid, tier, score }) => ({ rowid, tier, score })) };
  }

  /** Every item's date as a number, read once and kept in step with what is written. */
  private dates: Map<number, number> | undefined;
  private datesByRowid(): Map<number, number> {
    if (!this.dates) {
      this.dates = new Map();
      for (const [rowid, date] of this.statements.allDates.iterate() as Iterable<[number, string]>) this.dates.set(rowid, dateNumber(date));
    }
    return this.dates;
  }

  docs(rowids: readonly number[]): Map<number, StoredDoc> {
    const rows = this.statements.byRowids.all(JSON.stringify(rowids)) as Record<string, unknown>[];
    return new Map(
      rows.map((row) => [
        row.rowid as number,
        { ...toSearchDoc(row), normBrief: row.norm_brief as string, normBody: row.norm_body as string, aligned: row.aligned as number },
      ]),
    );
  }

  optimise(): void {
    this.db.exec("INSERT INTO fts (fts) VALUES ('optimize')");
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** What the index shows and finds of an item: unchanged, it is not written again. */
const hashOf = (doc: SearchDoc) =>
  createHash("sha1")
    .update(JSON.stringify([doc.title, doc.brief, doc.body, doc.date, doc.url]))
    .digest("base64url");

/** `yyyyMMdd` or `yyyyMMddHHmmss` as one comparable number; none is 0. */
const dateNumber = (date: string) => (date.length === 8 ? Number(date) * 1e6 : Number(date) || 0);

/** The first `n` of `items` in `order`, without sorting them all when `n` is a page. */
function topOf<T>(items: T[], n: number, order: (a: T, b: T) => number): T[] {
  if (n > 100 || items.length <= n * 4) return items.sort(order).slice(0, n);
  const kept: T[] = [];
  for (const item of items) {
    if (kept.length === n && order(item, kept[n - 1] as T) >= 0) continue;
    let at = kept.length;
    while (at > 0 && order(item, kept[at - 1] as T) < 0) at--;
    kept.splice(at, 0, item);
    if (kept.length > n) kept.pop();
  }
  return kept;
}

function toSearchDoc(row: Record<string, unknown>): SearchDoc {
  return {
    type: row.type as SearchType,
    id: row.item as number,
    title: row.title as string,
    brief: row.brief as string,
    body: row.body as string,
    date: row.date as string,
    url: row.url as string,
    fingerprint: row.fingerprint as string,
  };
}
