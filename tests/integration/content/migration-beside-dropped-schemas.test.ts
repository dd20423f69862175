/**
 * A PostgreSQL server shared with other clients that create and drop schemas (other sites, other
 * tests, other applications): opening the content database migrates it whatever they drop meanwhile.
 */

import { sql } from "kysely";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { openContentDb } from "../../../server/content/db.ts";
import { CONTENT_MIGRATIONS } from "../../../server/content/migrations.ts";
import { describeOnPostgres } from "../../support/databases.ts";

const OPENINGS = 40;

describeOnPostgres("migration beside dropped schemas", (databases) => {
  afterAll(() => databases.dispose());

  it(`opens ${OPENINGS} new databases while another client drops schemas`, async () => {
    const urls = await Promise.all(Array.from({ length: OPENINGS }, () => databases.create()));
    const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await other.connect();
    let opening = true;
    let dropped = 0;
    const churn = (async () => {
      for (let i = 0; opening; i++) {
        const name = `t_churn_${process.pid}_${i}`;
        await other.query(`create schema "${name}"; create table "${name}".t (id int)`);
        await other.query(`drop schema "${name}" cascade`);
        dropped++;
      }
    })();
    const failures: string[] = [];
    try {
      for (const url of urls) {
        try {
          await (await openContentDb(url)).close();
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
    } finally {
      opening = false;
      await churn;
      await other.end();
    }
    expect(dropped).toBeGreaterThan(0);
    expect(failures).toEqual([]);
    // Opened again, each finds its migrations done, in its own schema.
    const again = await openContentDb(urls[0] as string);
    const { rows } = await sql<{ n: string }>`select count(*) as n from kysely_migration`.execute(again.db);
    await again.close();
    expect(Number(rows[0]?.n)).toBe(Object.keys(CONTENT_MIGRATIONS).length);
  });
});
