/**
 * The databases the content suites run against: a fresh SQLite file per database,
 * and, when TEST_DATABASE_URL is set, a fresh PostgreSQL schema per database (so
 * files can run in parallel, another checkout's run can share the server at the same
 * time, and every run starts clean). With CI set and no TEST_DATABASE_URL, the
 * PostgreSQL suites fail instead of being skipped.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { describe, it } from "vitest";

export interface TestDatabases {
  dialect: "sqlite" | "postgres";
  /** The DATABASE_URL of a new, empty database. */
  create(): Promise<string>;
  /** Removes every database this target created. */
  dispose(): Promise<void>;
}

const PG_MISSING =
  "CI is set but TEST_DATABASE_URL is not: the PostgreSQL suite cannot run. " +
  "Start a server with `TEST_DATABASE_URL=$(bash .ci/postgres.sh) npx vitest run tests/integration/content`.";

/** Declares `suite` once per available database dialect. `tag` names this file's PostgreSQL schemas. */
export function describeEachDatabase(tag: string, suite: (databases: TestDatabases) => void): void {
  describe(`${tag} on sqlite`, () => suite(sqliteDatabases()));
  describeOnPostgres(tag, suite);
}

/** Declares `suite` on PostgreSQL only, for what only it has (schemas). */
export function describeOnPostgres(tag: string, suite: (databases: TestDatabases) => void): void {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    describe(`${tag} on postgres`, () => suite(postgresDatabases(pgUrl, tag)));
  } else if (process.env.CI) {
    describe(`${tag} on postgres`, () => {
      it("has a PostgreSQL database to run against", () => {
        throw new Error(PG_MISSING);
      });
    });
  } else {
    describe.skip(`${tag} on postgres (TEST_DATABASE_URL unset)`, () => {
      it("is skipped without TEST_DATABASE_URL", () => {});
    });
  }
}

export function sqliteDatabases(): TestDatabases {
  const dirs: string[] = [];
  return {
    dialect: "sqlite",
    async create() {
      const dir = await mkdtemp(join(tmpdir(), "portal-content-"));
      dirs.push(dir);
      // A sub-folder that does not exist yet: opening must create it.
      return `sqlite:${join(dir, "data", "portal.db")}`;
    },
    async dispose() {
      await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}

export function postgresDatabases(adminUrl: string, tag: string): TestDatabases {
  // PostgreSQL cuts names at 63 bytes: keep the tag part short so the prefix stays intact.
  const prefix = `t_${tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .slice(0, 30)}_`;
  // The machine and the process that made a schema are in its name: a leftover is one whose process has gone.
  const host = createHash("sha256").update(hostname()).digest("hex").slice(0, 6);
  const schemas: string[] = [];
  let leftoversDropped = false;
  const withClient = async <T>(run: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await run(client);
    } finally {
      await client.end();
    }
  };
  const dropSchemas = (client: pg.Client, names: string[]) =>
    names.reduce(
      (done, name) => done.then(() => client.query(`drop schema if exists "${name}" cascade`)),
      Promise.resolve() as Promise<unknown>,
    );
  return {
    dialect: "postgres",
    async create() {
      const schema = `${prefix}${host}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      await withClient(async (client) => {
        if (!leftoversDropped) {
          // Schemas an interrupted earlier run of this same file left behind, not those of a run still going.
          const { rows } = await client.query<{ name: string }>("select nspname as name from pg_namespace where starts_with(nspname, $1)", [
            `${prefix}${host}_`,
          ]);
          await dropSchemas(
            client,
            rows.map((r) => r.name).filter((name) => !isRunning(Number(name.slice(prefix.length + host.length + 1).split("_")[0]))),
          );
          leftoversDropped = true;
        }
        await client.query(`create schema "${schema}"`);
      });
      schemas.push(schema);
      const url = new URL(adminUrl);
      url.searchParams.set("options", `-c search_path=${schema}`);
      return url.toString();
    },
    async dispose() {
      const names = schemas.splice(0);
      if (names.length) await withClient((client) => dropSchemas(client, names));
    },
  };
}

/** Whether process `pid` of this machine is still there (ours or another user's). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
