/**
 * The bounded-search rows of the bench: on an index of 5,000 generated documents, the CPU
 * of an ordinary search (the median of 200 visitor-like queries) against the worst query
 * found among those built to cost the most under the input limits (q at most 100
 * characters): one-letter words, the corpus's commonest characters and prefixes, long
 * runs, mixed. Measured in a process of its own, CPU time per query (mean of 5 runs).
 *
 * Run alone: `tsx bench/search-cost-rows.ts --cost-child DIR` prints the figures as JSON.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { percentile } from "./burst.ts";
import { generatedDocs, visitorQueries } from "./search-rows.ts";

export const COST_DOCUMENTS = 5_000;
const MAX_Q = 100;

export interface SearchCostRun {
  documents: number;
  ordinaryP50Ms: number;
  worstMs: number;
  worstQuery: string;
}

export function measureSearchCost(cpu: string | undefined): SearchCostRun {
  const dir = mkdtempSync(path.join(tmpdir(), "portal-bench-search-cost-"));
  try {
    const args = ["--import", "tsx", import.meta.filename, "--cost-child", dir];
    const command = cpu ? "taskset" : process.execPath;
    const run = spawnSync(command, cpu ? ["-c", cpu, process.execPath, ...args] : args, { encoding: "utf8", maxBuffer: 1 << 24 });
    if (run.status !== 0) throw new Error(`search cost bench failed: ${run.stderr}`);
    return JSON.parse(run.stdout.trim().split("\n").pop() as string) as SearchCostRun;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The commonest of `pieces` in `texts`, by the number of texts holding them. */
function commonest(texts: readonly string[], pieces: (text: string) => Iterable<string>): string[] {
  const counts = new Map<string, number>();
  for (const text of texts) for (const piece of new Set(pieces(text))) counts.set(piece, (counts.get(piece) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([piece]) => piece);
}

/** Queries built to cost the most, each cut to the input limit. */
export function worstQueries(texts: readonly string[]): string[] {
  const chars = commonest(texts, (t) => t.match(/\p{Script=Han}/gu) ?? []);
  const pairs = commonest(texts, (t) =>
    (t.match(/\p{Script=Han}{2,}/gu) ?? []).flatMap((run) => [...run].slice(1).map((c, i) => `${run[i]}${c}`)),
  );
  const words = (t: string) => t.toLowerCase().match(/[a-z][a-z0-9]*/g) ?? [];
  const prefixes2 = commonest(texts, (t) => words(t).map((w) => w.slice(0, 2)));
  const prefixes3 = commonest(texts, (t) => words(t).map((w) => w.slice(0, 3)));
  const letters = "abcdefghijklmnopqrstuvwxyz".split("");
  const cut = (q: string) => q.slice(0, MAX_Q);
  return [
    letters.join(" "),
    `${chars.slice(0, 25).join("")}${letters.slice(0, 25).join("")}`,
    chars.slice(0, 50).join(" "),
    chars.slice(0, 100).join(""),
    pairs.slice(0, 33).join(" "),
    prefixes2.slice(0, 33).join(" "),
    prefixes3.slice(0, 25).join(" "),
    chars.slice(0, 4).join(" "),
    chars.slice(0, 6).join(" "),
    chars.slice(0, 8).join(" "),
    pairs.slice(0, 6).join(" "),
    `${prefixes2.slice(0, 3).join(" ")} ${chars.slice(0, 3).join(" ")}`,
    ...chars.slice(0, 3),
  ].map(cut);
}

async function child(dir: string): Promise<void> {
  const { SearchIndex } = await import("../server/search/search-index.ts");
  const generated = generatedDocs(COST_DOCUMENTS);
  const index = new SearchIndex(path.join(dir, "search.db"));
  index.open();
  index.beginBuild();
  for (let at = 0; at < generated.docs.length; at += 50) index.addToBuild(generated.docs.slice(at, at + 50));
  index.finishBuild(0, 0);
  const cpuOf = (q: string) => {
    index.search({ q, pageIndex: 0, pageMaxCount: 20 });
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < 5; i++) index.search({ q, pageIndex: 0, pageMaxCount: 20 });
    const cpu = process.cpuUsage(cpu0);
    return (cpu.user + cpu.system) / 5 / 1000;
  };
  const ordinary = visitorQueries(200, generated)
    .map(cpuOf)
    .sort((a, b) => a - b);
  const texts = generated.docs.slice(0, 1000).map((d) => `${d.title} ${d.brief} ${d.body}`);
  let worst = { ms: 0, q: "" };
  for (const q of worstQueries(texts)) {
    const ms = cpuOf(q);
    if (ms > worst.ms) worst = { ms, q };
  }
  const figures: SearchCostRun = {
    documents: index.figures().documents,
    ordinaryP50Ms: percentile(ordinary, 50),
    worstMs: worst.ms,
    worstQuery: worst.q,
  };
  index.close();
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

const at = process.argv.indexOf("--cost-child");
if (at !== -1) await child(process.argv[at + 1] as string);
