/** The search index file's tables and its version: a file of another version is not read but built again. */
import Database from "better-sqlite3";
import { TOKENS_VERSION } from "./text.ts";

/** Bump when the layout changes; the tokens have a version of their own (text.ts). */
const SCHEMA_VERSION = "3";
const INDEX_VERSION = `${SCHEMA_VERSION}.${TOKENS_VERSION}`;

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
    hash TEXT NOT NULL,
    UNIQUE (type, item)
  );
  CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
    title, brief, body, content='', contentless_delete=1, prefix='2 3', tokenize='unicode61 remove_diacritics 0'
  );
  -- Titles and briefs again: which matches have every term there is read from this small table,
  -- not from a second and third pass over the whole text.
  CREATE VIRTUAL TABLE IF NOT EXISTS heads USING fts5(
    title, brief, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0'
  );
`;

/**
 * SQLite's page cache for an index file, unless told (SEARCH_CACHE_MB): SQLite's own default. better-sqlite3 is built
 * with 16 MB, which a build of 10,000 items fills; the memory stays with the thread's malloc arena once the file closes.
 */
export const INDEX_CACHE_KB = 2048;

/** Opened, or made when `building` a new file; throws when the file is not an index of this version. */
export function openIndexDb(path: string, building: boolean, cacheKb = INDEX_CACHE_KB): Database.Database {
  const db = new Database(path);
  try {
    // Negative: a size in KiB, not in pages.
    db.pragma(`cache_size = -${Math.max(1, Math.floor(cacheKb))}`);
    if (building) {
      // Nothing to recover: a build that stops half-way is thrown away.
      db.pragma("journal_mode = OFF");
      db.pragma("synchronous = OFF");
    } else {
      db.pragma("journal_mode = DELETE");
      db.pragma("synchronous = NORMAL");
    }
    db.exec(SCHEMA);
    const version = db.prepare("SELECT value FROM meta WHERE key = 'version'").pluck().get() as string | undefined;
    if (version === undefined && building) {
      db.prepare("INSERT INTO meta (key, value) VALUES ('version', ?)").run(INDEX_VERSION);
    } else if (version !== INDEX_VERSION) {
      throw new Error(`search index ${path} is of version ${version ?? "none"}, not ${INDEX_VERSION}`);
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
