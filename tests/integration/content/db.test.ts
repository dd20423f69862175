/** Opening the content database: folders, SQLite settings, migrations, readiness, bad URLs. */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openContentDb } from "../../../server/content/db.ts";
import { CONTENT_MIGRATIONS } from "../../../server/content/migrations.ts";
import { describeEachDatabase } from "../../support/databases.ts";

describeEachDatabase("content database", (databases) => {
  afterAll(() => databases.dispose());

  it("migrates a new database and answers a ping", async () => {
    const content = await openContentDb(await databases.create());
    try {
      expect(content.dialect).toBe(databases.dialect);
      await expect(content.ping()).resolves.toBeUndefined();
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(content.db);
      expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(CONTENT_MIGRATIONS));
    } finally {
      await content.close();
    }
  });

  it("reopens a migrated database without migrating again", async () => {
    const url = await databases.create();
    await (await openContentDb(url)).close();
    const again = await openContentDb(url);
    try {
      const applied = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(again.db);
      expect(Number(applied.rows[0]?.n)).toBe(Object.keys(CONTENT_MIGRATIONS).length);
    } finally {
      await again.close();
    }
  });

  it("can be closed twice, and a closed database refuses queries", async () => {
    const content = await openContentDb(await databases.create());
    await content.close();
    await content.close();
    await expect(content.ping()).rejects.toThrow();
  });
});

describe("SQLite files", () => {
  let dir: string | undefined;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("creates the parent folder and runs in WAL mode with a busy timeout", async () => {
    dir = await mkdtemp(join(tmpdir(), "portal-db-"));
    const file = join(dir, "nested", "deeper", "portal.db");
    const content = await openContentDb(`sqlite:${file}`);
    try {
      expect(existsSync(file)).toBe(true);
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(content.db);
      expect(mode.rows[0]?.journal_mode).toBe("wal");
      const timeout = await sql<{ timeout: number }>`pragma busy_timeout`.execute(content.db);
      expect(timeout.rows[0]?.timeout).toBeGreaterThan(0);
    } finally {
      await content.close();
    }
  });
});

describe("unreachable PostgreSQL", () => {
  it("fails to open with an error instead of hanging", async () => {
    // Port 1 on loopback refuses connections at once.
    await expect(openContentDb("postgres://nobody:secret@127.0.0.1:1/none")).rejects.toThrow();
  });
});
