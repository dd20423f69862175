/** A copy of a live SQLite database as it was at one moment, by SQLite's online backup, while the server writes on. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";

const BUSY_TIMEOUT_MS = 5000;
const ALL_PAGES = 0x7fffffff;

/** `file` must not exist yet; returns the pages copied. */
export async function backupSqlite(sourcePath: string, file: string): Promise<number> {
  if (sourcePath === ":memory:") throw new Error("DATABASE_URL names an in-memory database: there is nothing to back up");
  const source = resolve(sourcePath);
  if (!existsSync(source)) throw new Error(`no database at ${source}`);
  if (existsSync(file)) throw new Error(`${file} already exists: name a new file`);
  const { default: SqliteDatabase } = await import("better-sqlite3");
  // Not read-only: a read-only connection cannot open a WAL database whose -shm file is gone.
  const db = new SqliteDatabase(source, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Every page in one step, under one read transaction: a write between steps would restart the copy.
    const { totalPages } = await db.backup(file, { progress: () => ALL_PAGES });
    return totalPages;
  } finally {
    db.close();
  }
}
