/**
 * Enquiries in DATABASE_URL's database, through a connection of this process's own, opened
 * again after a failure (docs/behaviour.md#enquiries, "Nothing lost").
 */
import { randomBytes } from "node:crypto";
import type { Insertable, Selectable } from "kysely";
import { lazyContentDb } from "../content/db.ts";
import type { ChannelState, EnquiryTable } from "../content/schema.ts";

export type Enquiry = Selectable<EnquiryTable>;
type NewEnquiry = Omit<Insertable<EnquiryTable>, "id" | "attempts" | "lease_until" | "last_error">;
export type Channel = "webhook" | "mail";

export interface AttemptEnd {
  attempts: number;
  nextAttemptAt: number | null;
  lastError: string | null;
  failed: readonly Channel[];
}

const stateColumn = (channel: Channel) => (channel === "webhook" ? "webhook_state" : "mail_state");

export interface EnquiryStore {
  /** Stores the enquiry and spends its token's nonce in one transaction; "replayed": spent before. */
  save(enquiry: NewEnquiry, nonce: string, tokenExpiresAt: number): Promise<{ saved: Enquiry } | "replayed">;
  /** Each enquiry returned is leased to this caller until `leaseUntil`. */
  claimDue(nowMs: number, leaseUntil: number, limit: number): Promise<Enquiry[]>;
  /** Moves the end of a lease still held (`held`: its end now) to `until`; false: it was not held any more. */
  renewLease(id: string, held: number, until: number): Promise<boolean>;
  markChannel(id: string, channel: Channel, state: ChannelState): Promise<void>;
  /** Gives a lease still held back, `failed` channels marked so; `nextAttemptAt` null: nothing left. False: not held. */
  finishAttempt(id: string, held: number, change: AttemptEnd): Promise<boolean>;
  list(options?: { since?: number }): Promise<Enquiry[]>;
  remove(id: string): Promise<boolean>;
  /** Also spent tokens expired by `nowMs`; the number of enquiries deleted. */
  deleteOlderThan(before: number, nowMs: number): Promise<number>;
  oldestPending(): Promise<number | undefined>;
  ping(): Promise<void>;
  /** A scrape of the metrics never opens the database. */
  isOpen(): boolean;
  close(): Promise<void>;
}

/** The webhook-id of every delivery of the enquiry, and its Message-ID's left part. */
const newEnquiryId = () => `enq_${randomBytes(15).toString("base64url")}`;

export function createEnquiryStore(databaseUrl: string): EnquiryStore {
  const connection = lazyContentDb(databaseUrl, "the enquiry store");
  const { open } = connection;
  const db = async () => (await open()).db;

  return {
    async save(enquiry, nonce, tokenExpiresAt) {
      const id = newEnquiryId();
      const row = { ...enquiry, id, attempts: 0, lease_until: null, last_error: null };
      return (await db()).transaction().execute(async (trx) => {
        const spent = await trx
          .insertInto("enquiry_tokens")
          .values({ nonce, expires_at: tokenExpiresAt })
          .onConflict((c) => c.column("nonce").doNothing())
          .executeTakeFirst();
        if (Number(spent.numInsertedOrUpdatedRows ?? 0) === 0) return "replayed" as const;
        await trx.insertInto("enquiries").values(row).execute();
        return { saved: row as Enquiry };
      });
    },
    async claimDue(nowMs, leaseUntil, limit) {
      const d = await db();
      const due = await d
        .selectFrom("enquiries")
        .select("id")
        .where("next_attempt_at", "<=", nowMs)
        .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", nowMs)]))
        .orderBy("next_attempt_at")
        .limit(limit)
        .execute();
      const claimed: Enquiry[] = [];
      for (const { id } of due) {
        // Tested again as the row is written: of instances racing for it, one wins.
        const taken = await d
          .updateTable("enquiries")
          .set({ lease_until: leaseUntil })
          .where("id", "=", id)
          .where("next_attempt_at", "<=", nowMs)
          .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", nowMs)]))
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) !== 1) continue;
        const row = await d.selectFrom("enquiries").selectAll().where("id", "=", id).executeTakeFirst();
        if (row) claimed.push(row);
      }
      return claimed;
    },
    async renewLease(id, held, until) {
      const renewed = await (await db())
        .updateTable("enquiries")
        .set({ lease_until: until })
        .where("id", "=", id)
        .where("lease_until", "=", held)
        .executeTakeFirst();
      return Number(renewed.numUpdatedRows) === 1;
    },
    async markChannel(id, channel, state) {
      await (await db())
        .updateTable("enquiries")
        .set({ [stateColumn(channel)]: state })
        .where("id", "=", id)
        .execute();
    },
    async finishAttempt(id, held, change) {
      const failed = Object.fromEntries(change.failed.map((channel) => [stateColumn(channel), "failed" satisfies ChannelState]));
      const finished = await (await db())
        .updateTable("enquiries")
        .set({
          ...failed,
          attempts: change.attempts,
          next_attempt_at: change.nextAttemptAt,
          last_error: change.lastError,
          lease_until: null,
        })
        .where("id", "=", id)
        .where("lease_until", "=", held)
        .executeTakeFirst();
      return Number(finished.numUpdatedRows) === 1;
    },
    async list(options = {}) {
      let query = (await db()).selectFrom("enquiries").selectAll().orderBy("created_at").orderBy("id");
      if (options.since !== undefined) query = query.where("created_at", ">=", options.since);
      return query.execute();
    },
    async remove(id) {
      const result = await (await db()).deleteFrom("enquiries").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async deleteOlderThan(before, nowMs) {
      const d = await db();
      await d.deleteFrom("enquiry_tokens").where("expires_at", "<", nowMs).execute();
      const result = await d.deleteFrom("enquiries").where("created_at", "<", before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async oldestPending() {
      const row = await (await db())
        .selectFrom("enquiries")
        .select((eb) => eb.fn.min("created_at").as("oldest"))
        .where("next_attempt_at", "is not", null)
        .executeTakeFirst();
      return row?.oldest == null ? undefined : Number(row.oldest);
    },
    async ping() {
      await (await open()).ping();
    },
    isOpen: connection.isOpen,
    close: connection.close,
  };
}
