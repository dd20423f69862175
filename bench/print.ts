/** The bench's printed results: its header, the table, the miss costs and the other figures under it. */
import os from "node:os";
import path from "node:path";
import type { CrawlFigures } from "./crawl-row.ts";
import type { JsSize } from "./js-size.ts";
import type { MissCost } from "./miss-cost.ts";
import { CPU_COUNT, HOME_MISS_ROUNDS, HOME_MISSES, LOAD_AT_START, LOAD_CPU, MISSES, options, SERVER_CPU } from "./options.ts";
import type { measureRuleTable } from "./redirect-rows.ts";
import { kb, type Row } from "./rows.ts";
import type { SearchFiguresRun } from "./search-rows.ts";

export interface Results {
  pinned: boolean;
  rows: Row[];
  missCosts: { id: string; label: string; cost: MissCost }[];
  search?: SearchFiguresRun;
  ruleTable?: ReturnType<typeof measureRuleTable>;
  js: JsSize;
  crawl?: CrawlFigures;
}

export function printResults({ pinned, rows, missCosts, search, ruleTable, js, crawl }: Results): void {
  printHeader(pinned);
  printTable(rows);
  const noisiest = Math.max(0, ...rows.map((r) => r.othersPct ?? 0));
  if (noisiest > 5)
    console.log(
      `warning: other processes took up to ${noisiest.toFixed(0)}% of the servers' CPU during a run: those figures are distorted`,
    );
  if (missCosts.length > 0) printMissCosts(missCosts);
  if (crawl) {
    console.log("");
    console.log(
      `crawler (m3): ${crawl.pages} cold detail pages at ${crawl.pagesPerS.toFixed(0)} pages/s, ${crawl.cpuMsPerPage.toFixed(2)} ms of server CPU and ${crawl.upstreamPerPage.toFixed(2)} upstream requests a page, peak RSS ${crawl.peakRssMb.toFixed(0)} MB during the walk (${crawl.startupPeakRssMb.toFixed(0)} MB before it, while its search index read the news)`,
    );
  }
  if (search) {
    console.log("");
    console.log(
      `search index: ${search.documents} documents built in ${search.buildSeconds.toFixed(1)} s (${search.buildCpuSeconds.toFixed(1)} s of CPU), peak RSS ${search.peakRssMb.toFixed(0)} MB (+${(search.peakRssMb - search.rssBeforeMb).toFixed(0)} MB over the documents read), ${search.indexMb.toFixed(1)} MB on disk`,
    );
  }
  if (ruleTable) {
    console.log("");
    console.log(
      `redirect rules: ${ruleTable.rules} loaded in ${ruleTable.loadCpuMs.toFixed(0)} ms of CPU (${ruleTable.loadMs.toFixed(0)} ms wall); a lookup ${ruleTable.lookupNs.toFixed(0)} ns of CPU among them, ${ruleTable.smallLookupNs.toFixed(0)} ns among 10`,
    );
    const { patterns } = ruleTable;
    console.log(
      `redirect patterns: ${patterns.rules} loaded in ${patterns.loadCpuMs.toFixed(0)} ms of CPU (${patterns.loadMs.toFixed(0)} ms wall); a lookup ${patterns.lookupNs.toFixed(0)} ns of CPU among them, ${patterns.smallLookupNs.toFixed(0)} ns among 10`,
    );
  }
  console.log("");
  console.log(
    `home page JavaScript (gzip): ${kb(js.gzipBytes)} kB (${kb(js.bytes)} kB raw) in ${js.files.length} files: ${js.files.map((f) => `${path.basename(f.file)} ${kb(f.gzipBytes)}`).join(", ")}`,
  );
}

function printHeader(pinned: boolean): void {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  console.log("");
  if (LOAD_AT_START > 0.5) console.log("warning: the machine was busy when the bench started; other work distorts every figure");
  console.log(
    `portal bench — ${new Date().toISOString()}, node ${process.version}, ${CPU_COUNT} × ${cpu}, load average ${LOAD_AT_START.toFixed(2)} at start` +
      `\nservers ${pinned ? `on CPU ${SERVER_CPU}` : "unpinned"}, wrk -t1 -c${options.connections} ${pinned ? `on CPU ${LOAD_CPU}` : "unpinned"}, ` +
      `${options.rounds} interleaved rounds × ${options.durationS} s after ${options.warmupS} s warm-up, ` +
      `${options.gzip ? "Accept-Encoding: gzip" : "no Accept-Encoding (identity)"}, server LOG_LEVEL=${options.logLevel}` +
      "\nreq/s: median of the rounds (± their spread); p50/p99: median of the rounds; bytes: per response incl. headers;" +
      "\npeak RSS: VmHWM of the scenario's own server process over the whole run; server CPU: its mean CPU use in the runs;" +
      `\nothers: the most other processes took of CPU ${SERVER_CPU} in one run (should be ~0%); × (a): req/s over the baseline's\n`,
  );
}

export function printMissCosts(costs: { id: string; label: string; cost: MissCost }[]): void {
  console.log("");
  console.log(
    `what a miss costs, one at a time on an idle server (ms): server CPU in the median of ${HOME_MISS_ROUNDS} rounds of ${HOME_MISSES / HOME_MISS_ROUNDS} (m0, m) or in ${MISSES} (m2), stages the mean of them all as the server timed them:`,
  );
  const header = ["", "miss", "data", "render", "compress", "server CPU", "rounds", "CPU besides render and compress", "statuses"];
  const ms = (value: number) => (Number.isNaN(value) ? "—" : value.toFixed(2));
  const cells = costs.map(({ id, label, cost }) => [
    id,
    label,
    ms(cost.stageMs.data),
    ms(cost.stageMs.render),
    ms(cost.stageMs.compress),
    ms(cost.cpuMs),
    cost.roundsMs.length > 1 ? `${ms(Math.min(...cost.roundsMs))}-${ms(Math.max(...cost.roundsMs))}` : "—",
    ms(cost.cpuMs - cost.stageMs.render - (Number.isNaN(cost.stageMs.compress) ? 0 : cost.stageMs.compress)),
    [...cost.statuses].map(([status, n]) => `${n} × ${status}`).join(", "),
  ]);
  printColumns(header, cells, new Set([2, 3, 4, 5, 6, 7]));
}

export function printColumns(header: string[], cells: string[][], numeric: Set<number>): void {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => (numeric.has(i) ? v.padStart(widths[i] as number) : v.padEnd(widths[i] as number)))
      .join("  ")
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const c of cells) console.log(line(c));
}

export function printTable(rows: Row[]): void {
  const header = [
    "",
    "scenario",
    "req/s",
    "±",
    "p50 ms",
    "p99 ms",
    "bytes/resp",
    "peak RSS MB",
    "server CPU",
    "others",
    "× (a)",
    "served as",
  ];
  const cells = rows.map((r) => [
    r.id,
    r.label,
    r.reqPerS.toFixed(0),
    r.spreadPct === undefined ? "" : `${r.spreadPct.toFixed(0)}%`,
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
    r.bytes.toFixed(0),
    r.peakRssMb.toFixed(0),
    r.serverCpuPct === undefined ? "" : `${r.serverCpuPct.toFixed(0)}%`,
    r.othersPct === undefined ? "" : `${r.othersPct.toFixed(0)}%`,
    r.ratio === undefined || r.id.startsWith("f") ? "—" : r.ratio.toFixed(2),
    r.cache + (r.errors > 0 && !r.id.startsWith("f") ? ` (${r.errors} errors)` : r.errors > 0 ? ` (${r.errors} not 200)` : ""),
  ]);
  printColumns(header, cells, new Set([2, 3, 4, 5, 6, 7, 8, 9, 10]));
}
