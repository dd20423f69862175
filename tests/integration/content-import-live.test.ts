/**
 * An import into a running embedded site is live within seconds: `npm run content --
 * import` (the built command) into the database two workers serve from, and every worker
 * then answers the new content, however long its cached pages had left to live.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freshGet } from "../support/fresh-get.ts";
import { PROJECT_DIR, type ServerProcess, startServerProcess } from "../support/server-process.ts";

/** A page's text on a connection of its own (the cluster hands each to the next worker), or its status. */
async function page(url: string): Promise<string> {
  const { status, text } = await freshGet(url);
  return status === 200 ? text : `status ${status}`;
}

function runImport(file: string, databaseUrl: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ["dist/server/content-cli.js", "import", file], {
    cwd: PROJECT_DIR,
    env: { PATH: process.env.PATH ?? "", DATABASE_URL: databaseUrl },
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stderr })));
}

let dir: string;
let server: ServerProcess;
let databaseUrl: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "portal-import-live-"));
  databaseUrl = `sqlite:${path.join(dir, "portal.db")}`;
  // Long lifetimes: only a purge can bring the new content in the time the test waits.
  server = await startServerProcess(
    { DATABASE_URL: databaseUrl, IMAGE_CACHE_DIR: path.join(dir, "images"), WEB_CONCURRENCY: "2", CACHE_TTL_MS: "3600000" },
    { built: true },
  );
});

afterAll(async () => {
  if (server.child.exitCode === null) await server.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("an import into the running embedded site", () => {
  it("is served by every worker within seconds, pages and API answers alike", async () => {
    const site = JSON.parse(await readFile(path.join(PROJECT_DIR, "content/site.json"), "utf8"));
    const news = site.news[0] as { id: number; title: string };
    const detail = `${server.origin}/portal/message/news/${news.id}`;
    const api = `${server.origin}/api/portal/message/news/${news.id}`;
    // Both workers cache the old page and answer (each asked several times on new connections).
    for (let i = 0; i < 6; i++) {
      expect(await page(detail)).toContain(news.title.slice(0, 10));
      expect(await page(api)).toContain(news.title.slice(0, 10));
    }

    const title = "An imported headline the running site must show";
    news.title = title;
    const file = path.join(dir, "changed.json");
    await writeFile(file, JSON.stringify(site));
    const imported = await runImport(file, databaseUrl);
    expect(imported).toMatchObject({ code: 0 });

    // Wait on state: until eight answers in a row, spread over both workers, carry the new title.
    let inARow = 0;
    for (let attempt = 0; attempt < 400 && inARow < 8; attempt++) {
      const [html, json] = await Promise.all([page(detail), page(api)]);
      inARow = html.includes(title) && json.includes(title) ? inARow + 1 : 0;
      if (inARow === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(inARow).toBe(8);
    // Each worker saw the import itself: each logs it on its own next look at the database, which a busy machine delays.
    const purges = () => server.logs.filter((line) => line.includes("the content database got an import: purged the caches"));
    await vi.waitFor(() => expect(new Set(purges().map((line) => JSON.parse(line).pid)).size).toBe(2), { timeout: 30_000, interval: 50 });
  }, 60_000);
});
