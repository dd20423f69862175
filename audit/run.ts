/**
 * `npm run audit`: builds the site, starts the production server with the demo content
 * and checks every page type at 375 and 1280 px with axe-core (WCAG 2.1 A and AA), the
 * Nu Html Checker (the server HTML and the hydrated DOM), Lighthouse in its mobile
 * emulation for the busiest pages, and every page type's main thread at 375 px with the
 * CPU slowed 4x (main-thread.ts). Prints one table, then a PASS or FAIL line per target
 * (verdicts.ts), and exits 1 when any is missed. Details land in .tmp/audit/report.json.
 *
 *   npm run audit                                   # everything, from a build
 *   npm run audit -- --skip-build                   # reuse dist/ from an earlier build
 *   npm run audit -- --only="home,newsDetail"       # only these pages (by their ids in the route table)
 */
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { launchChromium } from "../harness/chromium.ts";
import { PROJECT_ROOT } from "../server/project-root.ts";
import { type BrowserVisit, visitWithAxe } from "./axe.ts";
import { launchCdpChromium } from "./cdp-pipe.ts";
import { CATEGORIES, type LighthouseResult, runLighthouse } from "./lighthouse.ts";
import { CPU_SLOWDOWN, type MainThreadResult, measureMainThread, PHONE_VIEWPORT } from "./main-thread.ts";
import { type AuditPage, auditPages, WIDTHS } from "./pages.ts";
import { startBuiltServer } from "./server.ts";
import { LIGHTHOUSE_TARGETS, lighthouseVerdicts, mainThreadVerdicts, meetsMainThreadTargets, type Verdict } from "./verdicts.ts";
import { checkHtml, type VnuError } from "./vnu.ts";

const log = (line: string) => process.stderr.write(`${line}\n`);

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed (${code}):\n${output}`))));
  });
}

interface PageView {
  page: AuditPage;
  width: number;
  visit: BrowserVisit;
}

async function auditInBrowser(origin: string, pages: AuditPage[]): Promise<PageView[]> {
  const browser = await launchChromium();
  try {
    const views: PageView[] = [];
    for (const page of pages) {
      for (const width of WIDTHS) {
        log(`axe        ${page.name} at ${width} px`);
        views.push({ page, width, visit: await visitWithAxe(browser, `${origin}${page.path}`, width) });
      }
    }
    return views;
  } finally {
    await browser.close();
  }
}

async function measureMainThreads(origin: string, pages: AuditPage[]): Promise<Map<AuditPage, MainThreadResult>> {
  const browser = await launchCdpChromium();
  try {
    const results = new Map<AuditPage, MainThreadResult>();
    for (const page of pages) {
      log(`main thread ${page.name} (${PHONE_VIEWPORT.width} px, CPU ${CPU_SLOWDOWN}x slower, 5 loads, 5 more if a target is missed)`);
      results.set(page, await measureMainThread(browser, `${origin}${page.path}`, meetsMainThreadTargets));
    }
    return results;
  } finally {
    await browser.close();
  }
}

async function fetchServerHtml(origin: string, pages: AuditPage[]): Promise<Map<string, string>> {
  const documents = new Map<string, string>();
  for (const page of pages) {
    const res = await fetch(`${origin}${page.path}`);
    if (!res.ok) throw new Error(`${page.path} answered ${res.status}`);
    documents.set(page.path, await res.text());
  }
  return documents;
}

const renderedName = (view: { page: AuditPage; width: number }) => `${view.page.path} (rendered at ${view.width} px)`;

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  const line = (row: string[]) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join("  ");
  const [head, ...body] = rows;
  return [line(head ?? []), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<number> {
  const started = Date.now();
  if (!process.argv.includes("--skip-build")) {
    log("building   npm run build");
    await run("npm", ["run", "build"]);
  }
  const only = process.argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
  const pages = auditPages().filter((page) => !only || only.split(",").includes(page.name));
  if (pages.length === 0)
    throw new Error(
      `--only names no page of: ${auditPages()
        .map((page) => page.name)
        .join(", ")}`,
    );
  log("starting   node dist/server/index.js (demo content on a fresh SQLite file)");
  const server = await startBuiltServer();
  let views: PageView[];
  let serverHtml: Map<string, string>;
  let vnu: Map<string, VnuError[]>;
  let lighthouse: Map<string, LighthouseResult>;
  let mainThread: Map<AuditPage, MainThreadResult>;
  try {
    serverHtml = await fetchServerHtml(server.origin, pages);
    views = await auditInBrowser(server.origin, pages);
    log(`vnu        ${serverHtml.size} server documents and ${views.length} rendered ones`);
    vnu = await checkHtml(new Map([...serverHtml, ...views.map((view) => [renderedName(view), view.visit.renderedHtml] as const)]));
    const measured = pages.filter((page) => page.lighthouse);
    log(`lighthouse ${measured.map((page) => page.name).join(", ")} (mobile, 375 px, slow 4G)`);
    lighthouse = await runLighthouse(
      measured.map((page) => `${server.origin}${page.path}`),
      3,
      LIGHTHOUSE_TARGETS.performance,
    );
    // --main-thread=lighthouse: only the pages Lighthouse runs on (CI, to keep it short).
    const threadPages = process.argv.includes("--main-thread=lighthouse") ? measured : pages;
    mainThread = await measureMainThreads(server.origin, threadPages);
  } finally {
    await server.stop();
  }
  const serverLog = server.output().trim();

  const lighthouseOf = (page: AuditPage) => lighthouse.get(`${server.origin}${page.path}`);
  const vnuOf = (view: PageView) => [...(vnu.get(view.page.path) ?? []), ...(vnu.get(renderedName(view)) ?? [])];
  const rows = [["page", "width", "axe", "vnu", "perf", "a11y", "best-pr", "seo"]];
  for (const view of views) {
    // Lighthouse emulates a phone: its scores sit on the narrow row.
    const result = view.width === WIDTHS[0] ? lighthouseOf(view.page) : undefined;
    rows.push([
      view.page.name,
      String(view.width),
      String(view.visit.violations.length),
      String(vnuOf(view).length),
      ...CATEGORIES.map((c) => (result ? String(result.scores[c]) : "-")),
    ]);
  }
  console.log(table(rows));

  console.log("");
  for (const view of views) {
    for (const v of view.visit.violations)
      console.log(`axe  ${view.page.name} ${view.width}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes} node(s): ${v.targets.join(", ")}`);
    if (view.visit.problems.length) console.log(`console ${view.page.name} ${view.width}: ${view.visit.problems.join(" | ")}`);
  }
  for (const [name, errors] of vnu) for (const e of errors) console.log(`vnu  ${name} line ${e.line}: ${e.message}`);
  for (const page of pages) {
    const result = lighthouseOf(page);
    if (!result) continue;
    const m = result.metrics;
    console.log(
      `lighthouse ${page.name}: FCP ${seconds(m.fcp)}, LCP ${seconds(m.lcp)}, TBT ${Math.round(m.tbt)} ms, CLS ${m.cls.toFixed(3)}, SI ${seconds(m.si)} (medians of ${result.runs} runs)`,
    );
    for (const f of result.failing) console.log(`lighthouse ${page.name}: ${f.category} loses points on ${f.id}: ${f.title}`);
  }

  console.log("");
  const threadRows = [["main thread (375 px, CPU 4x)", "longest task", "blocking", "per load: longest / blocking (ms)"]];
  for (const [page, result] of mainThread)
    threadRows.push([
      page.name,
      `${Math.round(result.longestTaskMs)} ms`,
      `${Math.round(result.totalBlockingMs)} ms`,
      result.loads.map((load) => `${Math.round(load.longestTaskMs)}/${Math.round(load.totalBlockingMs)}`).join(" "),
    ]);
  console.log(table(threadRows));

  if (serverLog) console.log(`server log:\n${serverLog}`);

  const axeCount = views.reduce((sum, view) => sum + view.visit.violations.length, 0);
  const vnuCount = [...vnu.values()].reduce((sum, errors) => sum + errors.length, 0);
  const verdicts: Verdict[] = [
    { pass: axeCount === 0, text: `axe: ${axeCount} violation(s) in ${views.length} page views (target 0)` },
    {
      pass: vnuCount === 0,
      text: `vnu: ${vnuCount} error(s) in ${serverHtml.size} server documents and ${views.length} rendered ones (target 0)`,
    },
    ...lighthouseVerdicts([...lighthouse.values()]),
    ...mainThreadVerdicts([...mainThread.values()]),
  ];
  console.log("");
  for (const { pass, text } of verdicts) console.log(`${pass ? "PASS" : "FAIL"} ${text}`);
  console.log(`audit took ${seconds(Date.now() - started)}`);

  const reportDir = path.join(PROJECT_ROOT, ".tmp/audit");
  await mkdir(reportDir, { recursive: true });
  await writeFile(
    path.join(reportDir, "report.json"),
    JSON.stringify(
      {
        views: views.map((view) => ({
          page: view.page.path,
          width: view.width,
          axe: view.visit.violations,
          vnu: vnuOf(view),
          console: view.visit.problems,
        })),
        lighthouse: Object.fromEntries(pages.flatMap((page) => (lighthouseOf(page) ? [[page.path, lighthouseOf(page)]] : []))),
        mainThread: Object.fromEntries([...mainThread].map(([page, result]) => [page.path, result])),
      },
      null,
      2,
    ),
  );
  return verdicts.every(({ pass }) => pass) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`audit failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
