/**
 * The search rows of the bench: an index of 10,000 generated documents (Chinese and
 * English text, of the demo site's vocabulary) built in a process of its own pinned to
 * one core, timed with its peak RSS and its size on disk, then 200 distinct queries
 * searched once each (after a warm-up of others), as a cache miss of /api/portal/search
 * computes them: the ranked page of 20 with marks and snippets, and its JSON.
 *
 * Run alone: `tsx bench/search-rows.ts --child DIR` prints the figures as JSON.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { percentile } from "./burst.ts";

export const SEARCH_DOCUMENTS = 10_000;
export const SEARCH_QUERIES = 200;

export interface SearchFiguresRun {
  documents: number;
  buildSeconds: number;
  /** CPU time of the build and of each query (wall time also counts whatever else the machine runs). */
  buildCpuSeconds: number;
  rssBeforeMb: number;
  peakRssMb: number;
  indexMb: number;
  queries: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  wallP50Ms: number;
  wallP99Ms: number;
  meanBytes: number;
  noResult: number;
}

/** Measures in a child process (pinned to `cpu` when given), so its RSS is the index's alone. */
export function measureSearch(cpu: string | undefined): SearchFiguresRun {
  const dir = mkdtempSync(path.join(tmpdir(), "portal-bench-search-"));
  try {
    const args = ["--import", "tsx", import.meta.filename, "--child", dir];
    const command = cpu ? "taskset" : process.execPath;
    const run = spawnSync(command, cpu ? ["-c", cpu, process.execPath, ...args] : args, { encoding: "utf8", maxBuffer: 1 << 24 });
    if (run.status !== 0) throw new Error(`search bench failed: ${run.stderr}`);
    return JSON.parse(run.stdout.trim().split("\n").pop() as string) as SearchFiguresRun;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A deterministic generator, so every run indexes the same text. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words of the demo site: Chinese runs split at two to four characters, and its Latin words. */
function vocabulary(): { chinese: string[]; latin: string[] } {
  const site = readFileSync(path.join(import.meta.dirname, "../content/site.json"), "utf8").replace(/<[^>]+>/g, " ");
  const chinese = new Set<string>();
  for (const run of site.match(/\p{Script=Han}{2,}/gu) ?? []) {
    for (let at = 0; at + 2 <= run.length; at += 2 + (at % 3)) chinese.add(run.slice(at, at + 2 + (at % 3)));
  }
  const latin = new Set((site.match(/[A-Za-z][A-Za-z0-9]{2,}/g) ?? []).map((w) => w.toLowerCase()));
  for (const word of ["robotics", "vision", "inspection", "gateway", "platform", "sensor", "maintenance", "factory", "quality", "java"])
    latin.add(word);
  return { chinese: [...chinese], latin: [...latin] };
}

export const SEARCH_TYPES_OF_BENCH = ["news", "notice", "product", "service", "job"] as const;

/** `count` documents of the demo site's vocabulary, the same every run, with the generator that made them. */
export function generatedDocs(count: number) {
  const types = SEARCH_TYPES_OF_BENCH;
  const next = random(20_260_101);
  const { chinese, latin } = vocabulary();
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const sentence = (words: number) =>
    `${Array.from({ length: words }, () => (next() < 0.12 ? ` ${pick(latin)} ` : pick(chinese))).join("")}。`;
  const docs = Array.from({ length: count }, (_, i) => ({
    type: types[i % types.length] as (typeof types)[number],
    id: i + 1,
    title: sentence(5),
    brief: sentence(20),
    body: Array.from({ length: 12 }, () => sentence(16)).join(""),
    date: `2025${String(1 + (i % 12)).padStart(2, "0")}${String(1 + (i % 28)).padStart(2, "0")}093000`,
    url: `/portal/message/news/${i + 1}`,
    fingerprint: "",
  }));
  return { docs, next, pick, chinese, latin };
}

/** `count` distinct queries as visitors type them: words of two to four characters, one character, Latin prefixes, mixed, Traditional. */
export function visitorQueries(
  count: number,
  { next, pick, chinese, latin }: Pick<ReturnType<typeof generatedDocs>, "next" | "pick" | "chinese" | "latin">,
): string[] {
  const queries = new Set<string>();
  while (queries.size < count) {
    const roll = next();
    const word = pick(chinese);
    if (roll < 0.45) queries.add(word);
    else if (roll < 0.55) queries.add(word.slice(0, 1));
    else if (roll < 0.7) queries.add(pick(latin).slice(0, 3 + Math.floor(next() * 4)));
    else if (roll < 0.85) queries.add(`${pick(latin)} ${word}`);
    else queries.add(`${word}${pick(chinese)}`);
  }
  return [...queries];
}

async function child(dir: string): Promise<void> {
  const { SearchIndex } = await import("../server/search/search-index.ts");
  const generated = generatedDocs(SEARCH_DOCUMENTS);
  const { docs } = generated;
  // What the server holds before it indexes: the documents, read; the converters are loaded by the build itself.
  const rssBefore = process.memoryUsage().rss;
  const index = new SearchIndex(path.join(dir, "search.db"));
  index.open();
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  index.beginBuild();
  for (let at = 0; at < docs.length; at += 50) index.addToBuild(docs.slice(at, at + 50));
  index.finishBuild(0, 0);
  const buildSeconds = (performance.now() - started) / 1000;
  const buildCpu = process.cpuUsage(cpuStarted);
  const buildCpuSeconds = (buildCpu.user + buildCpu.system) / 1e6;
  const peakAfterBuild = process.resourceUsage().maxRSS * 1024;

  const all = visitorQueries(SEARCH_QUERIES + 20, generated);
  for (const q of all.slice(SEARCH_QUERIES)) index.search({ q, pageIndex: 0, pageMaxCount: 20 });
  // CPU time per query: on a machine others share, wall time measures them as much as us.
  const times: number[] = [];
  const wall: number[] = [];
  let bytes = 0;
  let noResult = 0;
  for (const q of all.slice(0, SEARCH_QUERIES)) {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const result = index.search({ q, pageIndex: 0, pageMaxCount: 20 });
    bytes += JSON.stringify({ code: 0, msg: "ok", data: result }).length;
    const cpu = process.cpuUsage(cpu0);
    times.push((cpu.user + cpu.system) / 1000);
    wall.push(performance.now() - t0);
    if (result.totalCount === 0) noResult++;
  }
  times.sort((a, b) => a - b);
  wall.sort((a, b) => a - b);
  const figures: SearchFiguresRun = {
    documents: index.figures().documents,
    buildSeconds,
    buildCpuSeconds,
    rssBeforeMb: rssBefore / 2 ** 20,
    peakRssMb: peakAfterBuild / 2 ** 20,
    indexMb: statSync(path.join(dir, "search.db")).size / 2 ** 20,
    queries: times.length,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    meanMs: times.reduce((a, b) => a + b, 0) / times.length,
    wallP50Ms: percentile(wall, 50),
    wallP99Ms: percentile(wall, 99),
    meanBytes: bytes / times.length,
    noResult,
  };
  index.close();
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

const at = process.argv.indexOf("--child");
if (at !== -1) await child(process.argv[at + 1] as string);
