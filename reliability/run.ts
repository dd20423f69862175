/**
 * `npm run reliability` (after `npm run build`): starts the production server
 * (`node dist/server/index.js`) against a stand-in upstream this process controls, and
 * proves, section by section, what the "Reliability" section of docs/operations.md lists: faults
 * survived, bad inputs tried, cache poisoning and deception, XSS in Chromium, load,
 * miss flood, costly searches under load, shutdown (and a rolling restart behind nginx), no lost writes on PostgreSQL, several instances on one Redis, hostile
 * entries in that Redis. Prints one table; exits 1 on any failure
 * (2 when it cannot run at all).
 *
 * Options: --short (the CI form: 20 s load, fewer fuzz cases, shorter fault phases),
 * --only=a,b (sections by id: faults, inputs, poisoning, xss, load, flood, search, shutdown, writes, instances, trust),
 * --load-seconds=N (override the load duration), --keep-logs (keep the server logs and
 * memory samples even when everything passed; they are always kept on a failure).
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { liveChildren } from "../harness/children.ts";
import { ensureCommand, hasCommand, pinSelf } from "../harness/commands.ts";
import { SERVER_ENTRY } from "../harness/server-process.ts";
import { parseSiteFile } from "../server/content/site-file.ts";
import { PROJECT_ROOT } from "../server/project-root.ts";
import type { RunContext } from "./context.ts";
import { runFaults } from "./faults.ts";
import { runFlood } from "./flood.ts";
import { runInputs } from "./inputs.ts";
import { runInstances } from "./instances.ts";
import { runLoad } from "./load.ts";
import { runPoisoning } from "./poisoning.ts";
import { crashed, formatTable, passed, type SectionResult } from "./report.ts";
import { runSearchLoad } from "./search-load.ts";
import { runShutdown } from "./shutdown.ts";
import { runTierTrust } from "./tier-trust.ts";
import { runWrites } from "./writes.ts";
import { runXss } from "./xss.ts";

const SECTIONS: { id: string; title: string; run: (ctx: RunContext) => Promise<SectionResult> }[] = [
  { id: "faults", title: "faults survived", run: runFaults },
  { id: "inputs", title: "bad inputs tried", run: runInputs },
  { id: "poisoning", title: "cache poisoning and deception", run: runPoisoning },
  { id: "xss", title: "XSS", run: runXss },
  { id: "load", title: "load", run: (ctx) => runLoad(ctx, loadSeconds(ctx)) },
  { id: "flood", title: "miss flood", run: runFlood },
  { id: "search", title: "costly searches under load", run: runSearchLoad },
  { id: "shutdown", title: "shutdown", run: runShutdown },
  { id: "writes", title: "no lost writes", run: runWrites },
  { id: "instances", title: "several instances on one Redis", run: runInstances },
  { id: "trust", title: "hostile entries in the shared tier", run: runTierTrust },
];

const { values: argv } = parseArgs({
  options: {
    short: { type: "boolean", default: false },
    only: { type: "string" },
    "load-seconds": { type: "string" },
    "keep-logs": { type: "boolean", default: false },
  },
});

function loadSeconds(ctx: RunContext): number {
  if (argv["load-seconds"] !== undefined) {
    const value = Number(argv["load-seconds"]);
    if (!Number.isInteger(value) || value < 2) fatal("--load-seconds must be a whole number of at least 2");
    return value;
  }
  return ctx.short ? 20 : 300;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

function fatal(message: string): never {
  log(`reliability: ${message}`);
  process.exit(2);
}

// Servers and wrk die with the run, however it ends.
process.on("exit", () => {
  for (const child of liveChildren) child.kill("SIGKILL");
});
process.on("SIGINT", () => process.exit(130));
process.on("SIGTERM", () => process.exit(143));

async function main(): Promise<void> {
  const only = argv.only ? new Set(argv.only.split(",").map((s) => s.trim())) : undefined;
  const unknown = [...(only ?? [])].filter((id) => !SECTIONS.some((s) => s.id === id));
  if (unknown.length) fatal(`unknown section ${unknown.join(", ")}; sections: ${SECTIONS.map((s) => s.id).join(", ")}`);
  if (!existsSync(SERVER_ENTRY)) fatal(`${path.relative(PROJECT_ROOT, SERVER_ENTRY)} is missing: run \`npm run build\` first`);
  const selected = SECTIONS.filter((s) => !only || only.has(s.id));
  if (selected.some((s) => s.id === "load" || s.id === "flood") && !ensureCommand("wrk")) {
    fatal("wrk is needed for the load and flood sections: apt-get install -y wrk");
  }
  if (selected.some((s) => s.id === "shutdown") && !ensureCommand("nginx")) {
    fatal("nginx is needed for the shutdown section's rolling restart: apt-get install -y nginx");
  }

  const cpus = os.availableParallelism();
  const pinned = cpus >= 2 && hasCommand("taskset");
  if (pinned) pinSelf("1");
  const parsed = parseSiteFile(JSON.parse(await readFile(path.join(PROJECT_ROOT, "content/site.json"), "utf8")));
  if (!parsed.ok) fatal(`content/site.json: ${parsed.error}`);
  const workDir = await mkdtemp(path.join(os.tmpdir(), "portal-reliability-"));
  const logDir = path.join(workDir, "logs");
  await mkdir(logDir);
  const ctx: RunContext = {
    short: argv.short ?? false,
    workDir,
    logDir,
    serverCpus: pinned ? "0" : undefined,
    loadCpus: pinned ? "1" : undefined,
    site: parsed.site,
    log,
  };

  const started = Date.now();
  log(`reliability: ${ctx.short ? "short" : "full"} run, ${selected.length} sections${pinned ? ", server on CPU 0, load on CPU 1" : ""}`);
  const results: SectionResult[] = [];
  for (const section of selected) {
    const t = Date.now();
    log(`- ${section.title}`);
    let result: SectionResult;
    const limitS = section.id === "load" ? loadSeconds(ctx) + 180 : 600;
    let timer: NodeJS.Timeout | undefined;
    try {
      result = await Promise.race([
        section.run(ctx),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`did not finish within ${limitS} s`)), limitS * 1000);
        }),
      ]);
    } catch (error) {
      result = crashed(section.title, error);
      // A section that gave up may have left servers behind: they must not load the next one.
      for (const child of liveChildren) child.kill("SIGKILL");
    } finally {
      clearTimeout(timer);
    }
    results.push(result);
    log(`  ${passed(result) ? "PASS" : "FAIL"} in ${Math.round((Date.now() - t) / 1000)} s`);
  }

  const ok = results.every(passed);
  process.stdout.write(`\n${formatTable(results)}\n\n`);
  process.stdout.write(
    `${ok ? "PASS" : "FAIL"}: ${results.filter(passed).length}/${results.length} sections in ${Math.round((Date.now() - started) / 1000)} s (${ctx.short ? "short" : "full"} form)\n`,
  );
  if (ok && !argv["keep-logs"]) await rm(workDir, { recursive: true, force: true });
  else process.stdout.write(`server logs kept in ${logDir}\n`);
  process.exit(ok ? 0 : 1);
}

main().catch((error) => fatal(error instanceof Error ? (error.stack ?? error.message) : String(error)));
