/** One search index file: the items (as shown, and normalised) and an FTS5 table of their tokens (docs/decisions/0010-search-index-of-our-own.md). */
import Database from "better-sqlite3";
import { SEARCH_TYPES, type SearchType } from "../../shared/search.ts";
import { indexTokens, normaliseMapped } from "./text.ts";

/** Bump when the layout or the tokens change: a file of another version is built again. */
const SCHEMA_VERSION = "2";
/** A rowid holds its type, so counts per type read the FTS5 table alone, never a join per match. */
const TYPE_SPAN = 2 ** 40;
const typeRange = (type: SearchType) => {
  const lo = TYPE_SPAN * (SEARCH_TYPES.indexOf(type) + 1);
  return { lo, hi: lo + TYPE_SPAN - 1 };
};
/** Read beyond a page, so items tied with its last are ordered by date before the page is cut. */
const TIE_SLACK = 20;
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

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS docs (
    rowid INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    item INTEGER NOT NULL,
    title TEXT NOT NULL,
    brief TEXT NOT NULL,
    body TEXT NOT NULL,
    norm_brief TEXT NOT NULL,
    norm_body TEXT NOT NULL,
    aligned INTEGER NOT NULL,
    date TEXT NOT NULL,
    url TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    UNIQUE (type, item)
  );
  CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
    title, brief, body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0'
  );
`;

function normalisedOf(text: string): { norm: string; aligned: boolean } {
  const { out, map } = normaliseMapped(text);
  return { norm: out, aligned: out.length === text.length && map.every((at, i) => at === i) };
}

export class IndexFile {
  readonly path: string;
  readonly db: Database.Database;
  private readonly statements;

  /** Throws when the file is not an index of this version. */
  constructor(path: string, options: { building?: boolean } = {}) {
    this.path = path;
    this.db = new Database(path);
    try {
      if (options.building) {
        // Nothing to recover: a build that stops half-way is thrown away.
        this.db.pragma("journal_mode = OFF");
        this.db.pragma("synchronous = OFF");
      } else {
        this.db.pragma("journal_mode = DELETE");
        this.db.pragma("synchronous = NORMAL");
      }
      this.db.exec(SCHEMA);
      const version = this.db.prepare("SELECT value FROM meta WHERE key = 'version'").pluck().get() as string | undefined;
      if (version === undefined && options.building) {
        this.db.prepare("INSERT INTO meta (key, value) VALUES ('version', ?)").run(SCHEMA_VERSION);
      } else if (version !== SCHEMA_VERSION) {
        throw new Error(`search index ${path} is of version ${version ?? "none"}, not ${SCHEMA_VERSION}`);
      }
    } catch (err) {
      this.db.close();
      throw err;
    }
    this.statements = {
      find: this.db.prepare("SELECT rowid FROM docs WHERE type = ? AND item = ?").pluck(),
      fingerprint: this.db.prepare("SELECT fingerprint FROM docs WHERE type = ? AND item = ?").pluck(),
      doc: this.db.prepare("SELECT * FROM docs WHERE type = ? AND item = ?"),
      insertDoc: this.db.prepare(
        `INSERT INTO docs (rowid, type, item, title, brief, body, norm_brief, norm_body, aligned, date, url, fingerprint)
         VALUES (@rowid, @type, @id, @title, @brief, @body, @normBrief, @normBody, @aligned, @date, @url, @fingerprint)`,
      ),
      updateDoc: this.db.prepare(
        `UPDATE docs SET title = @title, brief = @brief, body = @body, norm_brief = @normBrief, norm_body = @normBody,
         aligned = @aligned, date = @date, url = @url, fingerprint = @fingerprint WHERE rowid = @rowid`,
      ),
      insertFts: this.db.prepare("INSERT INTO fts (rowid, title, brief, body) VALUES (?, ?, ?, ?)"),
      deleteFts: this.db.prepare("DELETE FROM fts WHERE rowid = ?"),
      deleteDoc: this.db.prepare("DELETE FROM docs WHERE rowid = ?"),
      count: this.db.prepare("SELECT count(*) FROM docs").pluck(),
      lastOfType: this.db.prepare("SELECT rowid FROM docs WHERE rowid BETWEEN ? AND ? ORDER BY rowid DESC LIMIT 1").pluck(),
      dates: this.db.prepare("SELECT rowid, date FROM docs WHERE rowid IN (SELECT value FROM json_each(?))"),
      byRowids: this.db.prepare("SELECT rowid, * FROM docs WHERE rowid IN (SELECT value FROM json_each(?))"),
    };
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
    };
    const tokens = [indexTokens(doc.title), indexTokens(doc.brief), indexTokens(body)] as const;
    const existing = this.statements.find.get(doc.type, doc.id) as number | undefined;
    if (existing === undefined) {
      const { lo, hi } = typeRange(doc.type);
      const rowid = ((this.statements.lastOfType.get(lo, hi) as number | undefined) ?? lo - 1) + 1;
      if (rowid > hi) throw new Error(`search index: no room for another ${doc.type}`);
      this.statements.insertDoc.run({ ...row, rowid });
      this.statements.insertFts.run(rowid, ...tokens);
    } else {
      this.statements.deleteFts.run(existing);
      this.statements.updateDoc.run({ ...row, rowid: existing });
      this.statements.insertFts.run(existing, ...tokens);
    }
  }

  remove(type: SearchType, id: number): void {
    const existing = this.statements.find.get(type, id) as number | undefined;
    if (existing === undefined) return;
    this.statements.deleteFts.run(existing);
    this.statements.deleteDoc.run(existing);
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

  facets(match: string): Map<string, number> {
    const rows = this.prepared("facets", `SELECT rowid / ${TYPE_SPAN} AS t, count(*) AS n FROM fts WHERE fts MATCH ? GROUP BY t`).all(
      match,
    ) as {
      t: number;
      n: number;
    }[];
    return new Map(rows.flatMap((r) => (SEARCH_TYPES[r.t - 1] ? [[SEARCH_TYPES[r.t - 1] as string, r.n]] : [])));
  }

  /** One page of the matches, in the order of docs/behaviour.md#search. */
  rank(match: { all: string; title: string; brief: string }, type: SearchType | undefined, limit: number, offset: number): Ranked[] {
    const sql = `
      SELECT rowid,
        CASE WHEN rowid IN (SELECT rowid FROM fts WHERE fts MATCH @title) THEN 0
             WHEN rowid IN (SELECT rowid FROM fts WHERE fts MATCH @brief) THEN 1 ELSE 2 END AS tier,
        bm25(fts, ${WEIGHTS}) AS score
      FROM fts
      WHERE fts MATCH @all AND rowid BETWEEN @lo AND @hi
      ORDER BY tier, score
      LIMIT @limit`;
    const range = type ? typeRange(type) : { lo: 0, hi: Number.MAX_SAFE_INTEGER };
    const candidates = this.prepared("rank", sql).all({ ...match, ...range, limit: offset + limit + TIE_SLACK }) as Ranked[];
    // Dates only for the candidates: a join per match would cost, on a query most items match.
    const dates = new Map(
      (this.statements.dates.all(JSON.stringify(candidates.map((c) => c.rowid))) as { rowid: number; date: string }[]).map((r) => [
        r.rowid,
        r.date,
      ]),
    );
    const dateOf = (rowid: number) => dates.get(rowid) ?? "";
    return candidates
      .sort((a, b) => a.tier - b.tier || a.score - b.score || dateOf(b.rowid).localeCompare(dateOf(a.rowid)) || b.rowid - a.rowid)
      .slice(offset, offset + limit);
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

  private readonly cache = new Map<string, Database.Statement>();
  private prepared(name: string, sql: string): Database.Statement {
    let statement = this.cache.get(name);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.cache.set(name, statement);
    }
    return statement;
  }
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
