/**
 * `npm run content -- export|import|backup FILE` as an operator runs it: a child process
 * (tsx server/content-cli.ts) against a real database named by DATABASE_URL.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startContentApi } from "../../../server/content/api.ts";
import { type ContentDb, openContentDb } from "../../../server/content/db.ts";
import { exportSite, importSite } from "../../../server/content/site-io.ts";
import { serialiseSite } from "../../../server/content/site-text.ts";
import { runContentCli as runCli } from "../../support/content-cli.ts";
import { describeEachDatabase, sqliteDatabases } from "../../support/databases.ts";
import { buildFixtureSite } from "../../support/fixture-site.ts";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "portal-cli-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

const expectOneLine = (stderr: string) => {
  expect(stderr.endsWith("\n")).toBe(true);
  expect(stderr.trim().split("\n")).toHaveLength(1);
};

describe("content cli usage", () => {
  it("prints usage and exits 2 for a missing file or an unknown command", async () => {
    const env = { DATABASE_URL: "sqlite:/nonexistent/never-opened.db" };
    const runs = await Promise.all([runCli(["export"], env), runCli(["frobnicate", "site.json"], env)]);
    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^usage: npm run content -- export FILE \| import FILE/);
    }
  });

  it("prints the configuration error and exits 1 for a bad DATABASE_URL", async () => {
    const run = await runCli(["export", "-"], { DATABASE_URL: "mysql://db/portal" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^DATABASE_URL must be sqlite:PATH or postgres:\/\/\.\.\./);
    expectOneLine(run.stderr);
  });

  it("never shows the userinfo of a bad DATABASE_URL, however mistyped", async () => {
    const run = await runCli(["export", "-"], { DATABASE_URL: "postgres:/portal:s3cr3t#pw@db.internal/portal" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^DATABASE_URL must be .*\(got "postgres:\/\*\*\*@db.internal\/portal"\)$/m);
    expect(run.stderr).not.toMatch(/s3cr3t|portal:/);
    expectOneLine(run.stderr);
  });
});

// Each run starts a TypeScript process (about a second), so the runs are few and checks
// of the database's state are made in-process through the store.
describeEachDatabase("content cli", (databases) => {
  const fixture = buildFixtureSite();
  const env: Record<string, string> = {};
  const file = (name: string) => join(folder, `${databases.dialect}-${name}`);
  let content: ContentDb;
  const exported = async () => serialiseSite(await exportSite(content));

  beforeAll(async () => {
    env.DATABASE_URL = await databases.create();
    content = await openContentDb(env.DATABASE_URL);
    await writeFile(file("fixture.json"), serialiseSite(fixture));
  });
  afterAll(async () => {
    await content?.close();
    await databases.dispose();
  });

  it("imports a site file, then exports it unchanged to a file and to stdout", async () => {
    const imported = await runCli(["import", file("fixture.json")], env);
    expect(imported.code).toBe(0);
    expect(await exported()).toBe(serialiseSite(fixture));
    const [toFile, toStdout] = await Promise.all([runCli(["export", file("export.json")], env), runCli(["export", "-"], env)]);
    expect([toFile.code, toStdout.code]).toEqual([0, 0]);
    expect(await readFile(file("export.json"), "utf8")).toBe(serialiseSite(fixture));
    expect(toStdout.stdout).toBe(serialiseSite(fixture));
  });

  it("rejects a news item whose dateTime is 2024 with one line naming it, changing nothing", async () => {
    const before = await exported();
    const site = structuredClone(fixture);
    (site.news[3] as { dateTime: string }).dateTime = "2024";
    await writeFile(file("bad.json"), serialiseSite(site));
    const run = await runCli(["import", file("bad.json")], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("import failed: news[3].dateTime: must be 14 digits\n");
    expect(await exported()).toBe(before);
  });

  it("refuses a site file of a newer format version with one line, changing nothing", async () => {
    const before = await exported();
    const run = await runCli(["import", "-"], env, serialiseSite({ ...fixture, version: 2 } as unknown as typeof fixture));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "import failed: version: the file is format 2, newer than the 1 this Portal reads; import it with a newer Portal\n",
    );
    expect(await exported()).toBe(before);
  });

  it("rejects invalid JSON from stdin with one line, changing nothing", async () => {
    const before = await exported();
    const run = await runCli(["import", "-"], env, '{"version": 1,');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^import failed: \(root\): not valid JSON/);
    expectOneLine(run.stderr);
    expect(await exported()).toBe(before);
  });
});

describe("content cli backup", () => {
  const databases = sqliteDatabases();
  afterAll(() => databases.dispose());

  it("copies the live SQLite database while its content API serves and counts readers: the copy has the same rows", async () => {
    const databaseUrl = await databases.create();
    const content = await openContentDb(databaseUrl);
    const api = await startContentApi(content);
    try {
      const fixture = buildFixtureSite();
      await importSite(content, fixture);
      const pid = fixture.news[0]?.id as number;
      const read = () =>
        fetch(`${api.url}/api/portal/reader/reader`, { method: "PUT", body: JSON.stringify({ type: 2, pid }) }).then((res) => res.status);
      const readerCount = async (db: ContentDb) =>
        (await db.db.selectFrom("readers").select("count").where("type", "=", 2).where("pid", "=", pid).executeTakeFirst())?.count ?? 0;
      const countBefore = await readerCount(content);
      expect(new Set(await Promise.all(Array.from({ length: 20 }, read)))).toEqual(new Set([200]));

      // Readers keep being counted while the backup runs.
      const target = join(folder, "backup.db");
      const [run, statuses] = await Promise.all([
        runCli(["backup", target], { DATABASE_URL: databaseUrl }),
        Promise.all(Array.from({ length: 50 }, read)),
      ]);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/^backed up the database to .*backup\.db \(\d+ pages\)\n$/);
      expect(new Set(statuses)).toEqual(new Set([200]));

      const copy = await openContentDb(`sqlite:${target}`);
      try {
        const { readers: copyReaders, ...copySite } = await exportSite(copy);
        const { readers: liveReaders, ...liveSite } = await exportSite(content);
        expect(copySite).toEqual(liveSite);
        expect(copyReaders.length).toBe(liveReaders.length);
        // A snapshot from some moment of the run: every read counted before it, at most every read counted after.
        const copied = await readerCount(copy);
        expect(copied).toBeGreaterThanOrEqual(countBefore + 20);
        expect(copied).toBeLessThanOrEqual(countBefore + 70);
        expect(await readerCount(content)).toBe(countBefore + 70);
      } finally {
        await copy.close();
      }

      const again = await runCli(["backup", target], { DATABASE_URL: databaseUrl });
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/^backup failed: .*backup\.db already exists: name a new file\n$/);
    } finally {
      await api.close();
      await content.close();
    }
  });

  it("says in one line to use pg_dump for PostgreSQL, without connecting", async () => {
    const run = await runCli(["backup", join(folder, "pg.dump")], { DATABASE_URL: "postgres://portal@127.0.0.1:1/portal" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^backup is for SQLite: DATABASE_URL is PostgreSQL, back it up with pg_dump/);
    expectOneLine(run.stderr);
  });
});
