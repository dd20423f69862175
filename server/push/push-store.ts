/**
 * The queue of addresses for search engines in DATABASE_URL's database, one row per engine
 * and path, claimed with a lease so that one instance sends each (docs/behaviour.md#telling-search-engines).
 */
import { randomBytes } from "node:crypto";
import { type ExpressionBuilder, sql } from "kysely";
import { lazyContentDb } from "../content/db.ts";
import type { Database, PushEngine } from "../content/schema.ts";

export type { PushEngine };

export interface Claimed {
  owner: string;
  paths: string[];
  /** The most attempts among them. */
  attempts: number;
  /** The earliest queued among them. */
  queuedAt: number;
}

export interface QueueOptions {
  /** When the rows become due: a new row waits this long for others to join it. */
  dueAt: number;
  /** An address sent to the engine since then is not queued again (a purge gives now: always). */
  unlessSentSince: number;
}

export interface PushStore {
  /** The number of rows queued (new, or waiting again). */
  queue(engines: readonly PushEngine[], paths: readonly string[], now: number, options: QueueOptions): Promise<number>;
  /**
   * Once a row of `engine` is due, leases it and the others due within `gatherMs` (at most `limit`)
   * to a new owner until `leaseUntil`; undefined: none due.
   */
  claim(engine: PushEngine, now: number, gatherMs: number, leaseUntil: number, limit: number): Promise<Claimed | undefined>;
  /** Sent (or dropped, `sent` false): nothing left to send for the claim's rows. */
  finish(engine: PushEngine, owner: string, now: number, sent: boolean): Promise<void>;
  /** Due again at `at`; `countAttempt` false when the engine was not asked (Baidu's quota). */
  retry(engine: PushEngine, owner: string, at: number, countAttempt: boolean): Promise<void>;
  oldestWaiting(engines: readonly PushEngine[]): Promise<number | undefined>;
  /** Rows with nothing left to send that last reached an engine before `before`. */
  prune(before: number): Promise<void>;
  readState(key: string): Promise<string | undefined>;
  writeState(key: string, value: string): Promise<void>;
  isOpen(): boolean;
  close(): Promise<void>;
}

/** Rows a single statement names: within SQLite's and PostgreSQL's bounds on parameters. */
const QUEUE_CHUNK = 400;

export function createPushStore(databaseUrl: string): PushStore {
  const connection = lazyContentDb(databaseUrl, "the push queue");
  const { open } = connection;

  const claimable = (engine: PushEngine, now: number, cutoff: number) => (eb: ExpressionBuilder<Database, "push_queue">) =>
    eb.and([
      eb("engine", "=", engine),
      eb("next_attempt_at", "is not", null),
      eb("next_attempt_at", "<=", cutoff),
      eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)]),
    ]);

  return {
    async queue(engines, paths, now, { dueAt, unlessSentSince }) {
      const { db } = await open();
      let queued = 0;
      const rows = engines.flatMap((engine) => paths.map((path) => ({ engine, path })));
      for (let at = 0; at < rows.length; at += QUEUE_CHUNK) {
        const chunk = rows.slice(at, at + QUEUE_CHUNK).map((row) => ({
          ...row,
          queued_at: now,
          next_attempt_at: dueAt,
          attempts: 0,
          lease_until: null,
          lease_owner: null,
          sent_at: null,
        }));
        // A row still waiting is the de-duplication; one sent (or dropped) waits again, unless sent lately.
        const result = await db
          .insertInto("push_queue")
          .values(chunk)
          .onConflict((oc) =>
            oc
              .columns(["engine", "path"])
              .doUpdateSet({ queued_at: now, next_attempt_at: dueAt, attempts: 0 })
              .where(({ eb, or }) =>
                eb.and([
                  eb("push_queue.next_attempt_at", "is", null),
                  or([eb("push_queue.sent_at", "is", null), eb("push_queue.sent_at", "<", unlessSentSince)]),
                ]),
              ),
          )
          .executeTakeFirst();
        queued += Number(result.numInsertedOrUpdatedRows ?? 0);
      }
      return queued;
    },

    async claim(engine, now, gatherMs, leaseUntil, limit) {
      const { db, dialect } = await open();
      const due = await db
        .selectFrom("push_queue")
        .select("path")
        .where(claimable(engine, now, now))
        .limit(1)
        .executeTakeFirst();
      if (!due) return undefined;
      const owner = randomBytes(12).toString("base64url");
      const cutoff = now + gatherMs;
      let chosen = db
        .selectFrom("push_queue")
        .select("path")
        .where(claimable(engine, now, cutoff))
        .orderBy("next_attempt_at")
        .orderBy("path")
        .limit(limit);
      // PostgreSQL: instances skip each other's rows rather than wait; SQLite has one writer at a time.
      if (dialect === "postgres") chosen = chosen.forUpdate().skipLocked();
      // The conditions again on the row written: of instances racing for it, one wins.
      await db
        .updateTable("push_queue")
        .set({ lease_until: leaseUntil, lease_owner: owner })
        .where(claimable(engine, now, cutoff))
        .where("path", "in", chosen)
        .execute();
      const rows = await db
        .selectFrom("push_queue")
        .select(["path", "attempts", "queued_at"])
        .where("engine", "=", engine)
        .where("lease_owner", "=", owner)
        .orderBy("path")
        .execute();
      if (rows.length === 0) return undefined;
      return {
        owner,
        paths: rows.map((row) => row.path),
        attempts: Math.max(...rows.map((row) => row.attempts)),
        queuedAt: Math.min(...rows.map((row) => Number(row.queued_at))),
      };
    },

    async finish(engine, owner, now, sent) {
      const { db } = await open();
      await db
        .updateTable("push_queue")
        .set({ next_attempt_at: null, attempts: 0, lease_until: null, lease_owner: null, ...(sent ? { sent_at: now } : {}) })
        .where("engine", "=", engine)
        .where("lease_owner", "=", owner)
        .execute();
    },

    async retry(engine, owner, at, countAttempt) {
      const { db } = await open();
      await db
        .updateTable("push_queue")
        .set((eb) => ({
          next_attempt_at: at,
          attempts: countAttempt ? eb("attempts", "+", 1) : eb.ref("attempts"),
          lease_until: null,
          lease_owner: null,
        }))
        .where("engine", "=", engine)
        .where("lease_owner", "=", owner)
        .execute();
    },

    async oldestWaiting(engines) {
      if (engines.length === 0) return undefined;
      const { db } = await open();
      const row = await db
        .selectFrom("push_queue")
        .select((eb) => eb.fn.min("queued_at").as("oldest"))
        .where("engine", "in", engines)
        .where("next_attempt_at", "is not", null)
        .executeTakeFirst();
      return row?.oldest == null ? undefined : Number(row.oldest);
    },

    async prune(before) {
      const { db } = await open();
      await db
        .deleteFrom("push_queue")
        .where("next_attempt_at", "is", null)
        .where((eb) => eb.or([eb("sent_at", "is", null), eb("sent_at", "<", before)]))
        .where("queued_at", "<", before)
        .execute();
    },

    async readState(key) {
      const { db } = await open();
      const row = await db.selectFrom("push_state").select("value").where("key", "=", key).executeTakeFirst();
      return row?.value;
    },

    async writeState(key, value) {
      const { db } = await open();
      await db
        .insertInto("push_state")
        .values({ key, value })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: sql.ref("excluded.value") }))
        .execute();
    },

    isOpen: connection.isOpen,
    close: connection.close,
  };
}
