/**
 * `npm run content -- export|import FILE` as an operator runs it: a child process
 * (tsx server/content/cli.ts) against a real database named by DATABASE_URL.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ContentDb, openContentDb } from "../../server/content/db.ts";
import { exportSite } from "../../server/content/site-io.ts";
import { serialiseSite } from "../../server/content/site-text.ts";
import { describeEachDatabase } from "./databases.ts";
import { buildFixtureSite } from "./fixture-site.ts";

const ROOT = join(import.meta.dirname, "../..");
const TSX = join(ROOT, "node_modules/.bin/tsx");

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string | undefined>, stdin = ""): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ["server/content/cli.ts", ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

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

  it("rejects invalid JSON from stdin with one line, changing nothing", async () => {
    const before = await exported();
    const run = await runCli(["import", "-"], env, '{"version": 1,');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^import failed: \(root\): not valid JSON/);
    expectOneLine(run.stderr);
    expect(await exported()).toBe(before);
  });
});
