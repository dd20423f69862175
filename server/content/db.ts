/** Opens and migrates the content database of DATABASE_URL, SQLite or PostgreSQL (docs/behaviour.md#content-api). */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Kysely, SqliteDialect, sql } from "kysely";
import { migrateContentDb } from "./migrations.ts";
import { OwnSchemaPostgresDialect } from "./own-schema-dialect.ts";
import type { Database } from "./schema.ts";

export type ContentDialect = "sqlite" | "postgres";

export interface ContentDb {
  db: Kysely<Database>;
  dialect: ContentDialect;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const SQLITE_BUSY_TIMEOUT_MS = 5000;
const INT8_OID = 20;

export async function openContentDb(databaseUrl: string): Promise<ContentDb> {
  const { db, dialect } = await openByUrl(databaseUrl);
  try {
    const schema = dialect === "postgres" ? await currentSchema(db) : undefined;
    await migrateContentDb(db as Kysely<unknown>, schema);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    db,
    dialect,
    async ping() {
      await sql`select 1`.execute(db);
    },
    close() {
      closing ??= db.destroy();
      return closing;
    },
  };
}

/** Only the driver in use is loaded: each costs a process megabytes it would never use. */
async function openByUrl(databaseUrl: string): Promise<{ db: Kysely<Database>; dialect: ContentDialect }> {
  if (databaseUrl.startsWith("sqlite:")) return { db: await openSqlite(databaseUrl.slice("sqlite:".length)), dialect: "sqlite" };
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return { db: await openPostgres(databaseUrl), dialect: "postgres" };
  throw new Error("DATABASE_URL must be sqlite:PATH or postgres://...");
}

async function openSqlite(path: string): Promise<Kysely<Database>> {
  if (!path) throw new Error("DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/portal.db");
  const inMemory = path === ":memory:";
  if (!inMemory) mkdirSync(dirname(resolve(path)), { recursive: true });
  const { default: SqliteDatabase } = await import("better-sqlite3");
  const sqlite = new SqliteDatabase(inMemory ? path : resolve(path));
  // WAL lets readers (an export, a second process) proceed while a write is in progress.
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  sqlite.pragma("synchronous = NORMAL");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

async function openPostgres(connectionString: string): Promise<Kysely<Database>> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    // int8 as JS numbers (every value stored fits), for this pool only, not pg's global table.
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID && format !== "binary" ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on("error", () => {});
  return new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
}

async function currentSchema(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error("the PostgreSQL search_path names no existing schema");
  return schema;
}

/** A connection opened on first use (a failed open is tried again at the next), and closed once. */
export interface LazyContentDb {
  open(): Promise<ContentDb>;
  isOpen(): boolean;
  close(): Promise<void>;
}

/** `what` names the store in the error a use after close() gets. */
export function lazyContentDb(databaseUrl: string, what: string): LazyContentDb {
  let opening: Promise<ContentDb> | undefined;
  let opened = false;
  let closed = false;
  return {
    open() {
      if (closed) return Promise.reject(new Error(`${what} is closed`));
      opening ??= openContentDb(databaseUrl).then(
        (content) => {
          opened = true;
          return content;
        },
        (error: unknown) => {
          opening = undefined;
          throw error;
        },
      );
      return opening;
    },
    isOpen: () => opened && !closed,
    async close() {
      closed = true;
      const current = opening;
      opening = undefined;
      await current?.then((content) => content.close()).catch(() => {});
    },
  };
}
