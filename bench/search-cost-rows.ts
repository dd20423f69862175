/**
 * The bounded-search rows of the bench: on an index of 5,000 generated documents, the CPU
 * of an ordinary search (the median of 200 visitor-like queries) against the worst query
 * found among those built to cost the most under the input limits (q at most 100
 * characters): one-letter words, the corpus's commonest characters and prefixes, long
 * runs, mixed. Measured in a process of its own, CPU time per query (mean of 5 runs).
 * Then the site search as the server runs it reads those 5,000 items from a content API
 * on loopback (pages of 100, as the upstream sends them): the event loop's delay (p99,
 * max) while it builds the index from nothing, and while it refreshes it unchanged.
 *
 * Run alone: `tsx bench/search-cost-rows.ts --cost-child DIR` prints the figures as JSON.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { percentile } from "./burst.ts";
import { generatedDocs, visitorQueries } from "./search-rows.ts";

export const COST_DOCUMENTS = 5_000;
const MAX_Q = 100;

export interface SearchCostRun {
  documents: number;
  ordinaryP50Ms: number;
  worstMs: number;
  worstQuery: string;
  /** The event loop's delay, ms, while the server's search built the index from nothing, then refreshed it unchanged. */
  buildDelayP99Ms: number;
  buildDelayMaxMs: number;
  buildSeconds: number;
  refreshDelayP99Ms: number;
  refreshDelayMaxMs: number;
  refreshSeconds: number;
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

/** Serves pages made beforehand: in a thread of its own, so its heap and CPU are not the measured thread's. */
const CONTENT_API_THREAD = `
  const http = require("node:http");
  const { parentPort, workerData } = require("node:worker_threads");
  const { pages, emptyPage, emptyList } = workerData;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url || "/", "http://content");
    let body = emptyList;
    if (url.pathname === "/api/portal/message/news/list") body = pages[Number(url.searchParams.get("pageIndex") || 0)] || emptyPage;
    else if (url.pathname.endsWith("/list") && !/product|service/.test(url.pathname)) body = emptyPage;
    res.writeHead(200, { "content-type": "application/json", "content-length": body.length }).end(body);
  });
  server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));
`;

/** A content API on loopback whose news are `docs`, in pages of 100 as the upstream sends them. */
async function contentApiOf(docs: ReturnType<typeof generatedDocs>["docs"]): Promise<{ url: string; close(): Promise<number> }> {
  const envelope = (data: unknown) => new Uint8Array(Buffer.from(JSON.stringify({ code: 0, msg: "ok", data })));
  const items = docs.map((d) => ({ id: d.id, title: d.title, brief: d.brief, dateTime: d.date, detail: `<p>${d.body}</p>` }));
  const pageCount = Math.ceil(items.length / 100);
  const pages = Array.from({ length: pageCount }, (_, i) =>
    envelope({ pageDataList: items.slice(i * 100, i * 100 + 100), totalCount: items.length, totalPageCount: pageCount }),
  );
  const workerData = { pages, emptyPage: envelope({ pageDataList: [], totalCount: 0, totalPageCount: 0 }), emptyList: envelope([]) };
  const thread = new Worker(CONTENT_API_THREAD, { eval: true, workerData });
  const port = await new Promise<number>((resolve) => thread.once("message", resolve));
  return { url: `http://127.0.0.1:${port}`, close: () => thread.terminate() };
}

/** The event loop's delay while `work` runs. */
async function delayDuring(work: () => Promise<unknown>): Promise<{ p99Ms: number; maxMs: number; seconds: number }> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const started = performance.now();
  delay.enable();
  await work();
  delay.disable();
  return { p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6, seconds: (performance.now() - started) / 1000 };
}

async function refreshDelays(dir: string, docs: ReturnType<typeof generatedDocs>["docs"]) {
  const { createSearch } = await import("../server/search/search.ts");
  const { createUpstreamClient } = await import("../server/api-proxy/upstream-client.ts");
  const { createLogger } = await import("../server/logger.ts");
  const content = await contentApiOf(docs);
  const search = createSearch(
    { file: path.join(dir, "site-search.db"), refreshMs: 0, contentLang: false, contentLangParam: undefined },
    { upstream: createUpstreamClient({ baseUrl: content.url, timeoutMs: 10_000 }), logger: createLogger("warn"), answerHeaders: [] },
  );
  search.start();
  try {
    const build = await delayDuring(() => search.rebuild());
    if (search.figures().documents !== docs.length) throw new Error(`indexed ${search.figures().documents} of ${docs.length}`);
    const refresh = await delayDuring(() => search.rebuild());
    return { build, refresh };
  } finally {
    search.close();
    await content.close();
  }
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
  index.close();
  const { build, refresh } = await refreshDelays(dir, generated.docs);
  const figures: SearchCostRun = {
    documents: generated.docs.length,
    ordinaryP50Ms: percentile(ordinary, 50),
    worstMs: worst.ms,
    worstQuery: worst.q,
    buildDelayP99Ms: build.p99Ms,
    buildDelayMaxMs: build.maxMs,
    buildSeconds: build.seconds,
    refreshDelayP99Ms: refresh.p99Ms,
    refreshDelayMaxMs: refresh.maxMs,
    refreshSeconds: refresh.seconds,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

const at = process.argv.indexOf("--cost-child");
if (at !== -1) await child(process.argv[at + 1] as string);
