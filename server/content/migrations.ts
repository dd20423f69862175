/**
 * The content schema's migrations, for SQLite and PostgreSQL alike.
 * Never edit one that has shipped: add the next instead (docs/behaviour.md#content-api).
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from "kysely";

const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("setting")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .execute();

    const collection = (name: string) =>
      db.schema
        .createTable(name)
        .addColumn("id", "bigint", (c) => c.primaryKey())
        .addColumn("position", "integer", (c) => c.notNull());

    await collection("menus")
      .addColumn("pid", "bigint", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("url", "text", (c) => c.notNull())
      .addColumn("url_type", "integer", (c) => c.notNull())
      .addColumn("delflag", "integer", (c) => c.notNull())
      .execute();
    await collection("slides")
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("url", "text", (c) => c.notNull())
      .addColumn("img", "text", (c) => c.notNull())
      .execute();
    await collection("products")
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("prop_img", "text", (c) => c.notNull())
      .addColumn("detail", "text", (c) => c.notNull())
      .addColumn("type", "bigint", (c) => c.notNull())
      .execute();
    await collection("services")
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("detail", "text", (c) => c.notNull())
      .addColumn("type", "bigint", (c) => c.notNull())
      .execute();
    await collection("partners")
      .addColumn("logo", "text", (c) => c.notNull())
      .addColumn("url", "text", (c) => c.notNull())
      .execute();
    await collection("founders")
      .addColumn("picture", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("job", "text", (c) => c.notNull())
      .addColumn("brief", "text", (c) => c.notNull())
      .execute();
    await collection("milestones")
      .addColumn("date", "text", (c) => c.notNull())
      .addColumn("brief", "text", (c) => c.notNull())
      .execute();
    await collection("job_types")
      .addColumn("name", "text", (c) => c.notNull())
      .execute();
    await collection("job_addrs")
      .addColumn("name", "text", (c) => c.notNull())
      .execute();
    await collection("jobs")
      .addColumn("type", "integer", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("job_addr_id", "bigint", (c) => c.notNull())
      .addColumn("job_type_id", "bigint", (c) => c.notNull())
      .addColumn("salary", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull())
      .addColumn("requirement", "text", (c) => c.notNull())
      .addColumn("call_hr", "text", (c) => c.notNull())
      .execute();

    // News and notices number their ids separately, hence the composite key.
    await db.schema
      .createTable("messages")
      .addColumn("kind", "integer", (c) => c.notNull())
      .addColumn("id", "bigint", (c) => c.notNull())
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("brief", "text", (c) => c.notNull())
      .addColumn("img", "text", (c) => c.notNull())
      .addColumn("date_time", "text", (c) => c.notNull())
      .addColumn("detail", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("messages_pkey", ["kind", "id"])
      .execute();

    await db.schema
      .createTable("readers")
      .addColumn("type", "integer", (c) => c.notNull())
      .addColumn("pid", "bigint", (c) => c.notNull())
      .addColumn("count", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("readers_pkey", ["type", "pid"])
      .execute();

    await db.schema.createIndex("messages_by_kind_date").on("messages").columns(["kind", "date_time desc", "id desc"]).execute();
    await db.schema.createIndex("milestones_by_date").on("milestones").columns(["date desc", "id desc"]).execute();
    await db.schema.createIndex("jobs_by_type").on("jobs").columns(["type", "id"]).execute();
  },
};

/** Enquiries and their delivery state (docs/behaviour.md#enquiries), and the tokens spent. */
const enquiries: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("enquiries")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("lang", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("phone", "text", (c) => c.notNull())
      .addColumn("company", "text", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("message", "text", (c) => c.notNull())
      .addColumn("consent_at", "bigint", (c) => c.notNull())
      .addColumn("consent_version", "text", (c) => c.notNull())
      .addColumn("client_hash", "text", (c) => c.notNull())
      .addColumn("webhook_state", "text", (c) => c.notNull())
      .addColumn("mail_state", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull())
      .addColumn("next_attempt_at", "bigint")
      .addColumn("lease_until", "bigint")
      .addColumn("last_error", "text")
      .execute();
    await db.schema.createIndex("enquiries_due").on("enquiries").columns(["next_attempt_at"]).execute();
    await db.schema.createIndex("enquiries_by_date").on("enquiries").columns(["created_at"]).execute();
    await db.schema
      .createTable("enquiry_tokens")
      .addColumn("nonce", "text", (c) => c.primaryKey())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
  },
};

/** Translations (docs/behaviour.md#content-api): an item's translated fields, beside its row. */
const translations: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("translations")
      .addColumn("entity", "text", (c) => c.notNull())
      .addColumn("id", "bigint", (c) => c.notNull())
      .addColumn("lang", "text", (c) => c.notNull())
      .addColumn("fields", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("translations_pkey", ["entity", "id", "lang"])
      .execute();
  },
};

/** The queue of addresses to tell search engines of (docs/behaviour.md#telling-search-engines). */
const pushQueue: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("push_queue")
      .addColumn("engine", "text", (c) => c.notNull())
      .addColumn("path", "text", (c) => c.notNull())
      .addColumn("queued_at", "bigint", (c) => c.notNull())
      .addColumn("next_attempt_at", "bigint")
      .addColumn("attempts", "integer", (c) => c.notNull())
      .addColumn("lease_until", "bigint")
      .addColumn("lease_owner", "text")
      .addColumn("sent_at", "bigint")
      .addPrimaryKeyConstraint("push_queue_pkey", ["engine", "path"])
      .execute();
    await db.schema.createIndex("push_queue_due").on("push_queue").columns(["engine", "next_attempt_at"]).execute();
    await db.schema
      .createTable("push_state")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .execute();
  },
};

/** Drafts and schedules (docs/behaviour.md#drafts-and-schedules): what exists stays published. */
const schedules: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ["products", "services", "messages", "jobs"]) {
      await db.schema
        .alterTable(table)
        .addColumn("status", "text", (c) => c.notNull().defaultTo("published"))
        .execute();
      await db.schema.alterTable(table).addColumn("publish_at", "bigint").execute();
    }
  },
};

export const CONTENT_MIGRATIONS: Readonly<Record<string, Migration>> = {
  "0001_initial": initial,
  "0002_enquiries": enquiries,
  "0003_translations": translations,
  "0004_push_queue": pushQueue,
  "0005_schedules": schedules,
};

const provider: MigrationProvider = { getMigrations: async () => ({ ...CONTENT_MIGRATIONS }) };

/** `schema` keeps a `kysely_migration` table of another PostgreSQL schema from being taken for ours. */
export async function migrateContentDb(db: Kysely<unknown>, schema?: string): Promise<void> {
  const migrator = new Migrator({ db, provider, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName;
    throw new Error(
      `content database migration ${failed ?? ""} failed: ${error instanceof Error ? error.message : String(error)}`.replace("  ", " "),
    );
  }
}
