/**
 * CI's check of the production recipe (docs/operations.md, "Production"):
 *   npm ci && npm run build && npm prune --omit=dev && npm start
 * Run after the build, on a copy of the tree (`cp -a`), so the tree itself keeps the
 * development dependencies the other steps need. In the copy, once pruned: no
 * development dependency is left, `npm start` serves the build without building, every
 * page type (audit/pages.ts) answers 200, and `npm run content -- export` writes the site;
 * then, a source changed so the build is stale, `npm start` stops with the one line saying to
 * run `npm run build` and builds nothing (npm start never builds in production).
 * Exits 0 when all hold, 1 saying what failed.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { appendFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { auditPages } from "../audit/pages.ts";
import { collectOutput, copyProject, npmStart, spawnNpm } from "../harness/npm-start.ts";
import { readSiteFile } from "../server/content/site-text.ts";
import { DEMO_SITE_FILE } from "../server/project-root.ts";

const run = promisify(execFile);

/** The build and test tools: once pruned, nothing the server or the content command runs may need them. */
const BUILD_TOOLS = ["tsx", "vite", "typescript", "vitest", "@vitejs/plugin-react"];

function exitOf(child: ReturnType<typeof spawnNpm>): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

async function check(copy: string): Promise<string[]> {
  const started = Date.now();
  await copyProject(copy);
  await run("npm", ["prune", "--omit=dev", "--no-audit", "--no-fund"], { cwd: copy });
  const left = BUILD_TOOLS.filter((name) => existsSync(path.join(copy, "node_modules", name)));
  if (left.length > 0) return [`npm prune --omit=dev left the development tools ${left.join(", ")}`];
  console.log(`copied and pruned in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // The node on the PATH runs the copy: CI runs this check once on the Node.js of .nvmrc, once on the next LTS.
  const { stdout: nodeVersion } = await run("node", ["--version"], { cwd: copy });
  console.log(`the copy runs on Node ${nodeVersion.trim()}`);

  const failures: string[] = [];
  const databaseUrl = `sqlite:${path.join(copy, "data/portal.db")}`;
  const server = await npmStart(copy, { DATABASE_URL: databaseUrl });
  try {
    if (/^> \S+ build$/m.test(server.output())) failures.push(`npm start built the site again:\n${server.output()}`);
    for (const page of auditPages()) {
      const res = await fetch(`${server.origin}${page.path}`);
      await res.arrayBuffer();
      if (res.status !== 200) failures.push(`${page.name} (${page.path}) answered ${res.status}`);
    }
    console.log(`npm start served ${auditPages().length} page types`);
  } finally {
    await server.stop();
  }
  if (!server.output().includes('"msg":"stopped"')) failures.push(`the server did not stop cleanly on SIGTERM:\n${server.output()}`);

  const file = path.join(copy, "site-export.json");
  const exporting = spawnNpm(copy, ["run", "content", "--", "export", file], { DATABASE_URL: databaseUrl });
  const output = collectOutput(exporting);
  const code = await exitOf(exporting);
  if (code !== 0) {
    failures.push(`npm run content -- export exited ${code}:\n${output()}`);
  } else {
    const [exported, demo] = await Promise.all([readSiteFile(file), readSiteFile(DEMO_SITE_FILE)]);
    if (exported.news.length !== demo.news.length)
      failures.push(`the export holds ${exported.news.length} news, the demo site ${demo.news.length}`);
    else console.log(`npm run content -- export wrote the site (${exported.news.length} news)`);
  }

  // A stale build in the pruned tree: the start stops with one line and no build is tried.
  await appendFile(path.join(copy, "server/config.ts"), "// changed after the build\n");
  const stale = spawnNpm(copy, ["start"], { DATABASE_URL: databaseUrl, PORT: "0", HOST: "127.0.0.1" });
  const staleOutput = collectOutput(stale);
  const staleCode = await exitOf(stale);
  const said = staleOutput()
    .split("\n")
    .filter((line) => line.includes("npm run build"));
  if (staleCode === 0) failures.push(`npm start served a stale build:\n${staleOutput()}`);
  else if (/^> \S+ build$/m.test(staleOutput()) || /vite|tsc/.test(staleOutput()))
    failures.push(`npm start tried to build:\n${staleOutput()}`);
  else if (!said.some((line) => /^the sources changed since dist\/ was built: run npm run build first/.test(line)))
    failures.push(`npm start on a stale build did not say to run npm run build:\n${staleOutput()}`);
  else console.log(`npm start on a stale build stopped (exit ${staleCode}): ${said[0]}`);
  return failures;
}

const folder = await mkdtemp(path.join(tmpdir(), "portal-production-"));
let failures: string[];
try {
  failures = await check(folder);
} catch (error) {
  failures = [error instanceof Error ? error.message : String(error)];
} finally {
  await rm(folder, { recursive: true, force: true });
}
for (const failure of failures) console.error(`FAIL ${failure}`);
if (failures.length === 0) console.log("PASS the production recipe runs after npm prune --omit=dev");
process.exitCode = failures.length === 0 ? 0 : 1;
