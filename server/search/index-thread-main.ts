/**
 * The search index's thread: it holds the index file and does everything that reads or
 * writes it (searching, tokenising, writing, merging), so SQLite and the tokeniser never
 * hold up the server's requests (docs/behaviour.md#search, "Off the main thread").
 */
import { parentPort, workerData } from "node:worker_threads";
import type { SearchQuery } from "../../shared/search.ts";
import type { SearchDoc } from "./index-file.ts";
import { SearchIndex } from "./search-index.ts";

if (!parentPort) throw new Error("the search index runs as a worker thread");

/** What the server may ask of the index, by name. */
export function callsOf(index: SearchIndex) {
  return {
    search: (query: SearchQuery) => {
      index.followReplaced();
      return index.search(query);
    },
    figures: () => {
      index.followReplaced();
      return index.figures();
    },
    outdated: () => index.outdated,
    beginBuild: () => index.beginBuild(),
    addToBuild: (docs: SearchDoc[]) => index.addToBuild(docs),
    finishBuild: (startedAt: number, now: number) => ({ gone: index.finishBuild(startedAt, now), fromScratch: index.buildIsFromScratch }),
    abandonBuild: () => index.abandonBuild(),
    put: (doc: SearchDoc) => index.put(doc),
    remove: (doc: Pick<SearchDoc, "type" | "id">) => index.remove(doc.type, doc.id),
    fingerprintOf: (doc: Pick<SearchDoc, "type" | "id">) => index.fingerprintOf(doc.type, doc.id),
    docOf: (doc: Pick<SearchDoc, "type" | "id">) => index.docOf(doc.type, doc.id),
  };
}

export type IndexCalls = ReturnType<typeof callsOf>;

export type IndexCall = { [K in keyof IndexCalls]: { id: number; method: K; args: Parameters<IndexCalls[K]> } }[keyof IndexCalls];

export type IndexAnswer = { id: number; result: unknown } | { id: number; error: string };

const port = parentPort;
const { file, cacheKb } = workerData as { file: string; cacheKb?: number };
const index = new SearchIndex(file, cacheKb);
let failed: string | undefined;
try {
  index.open();
} catch (err) {
  failed = `search index cannot be opened: ${err instanceof Error ? err.message : String(err)}`;
}
const calls = callsOf(index);

port.on("message", (call: IndexCall | { method: "close" }) => {
  if (call.method === "close") {
    index.close();
    port.close();
    return;
  }
  try {
    if (failed) throw new Error(failed);
    const run = calls[call.method] as (...args: unknown[]) => unknown;
    port.postMessage({ id: call.id, result: run(...call.args) } satisfies IndexAnswer);
  } catch (err) {
    port.postMessage({ id: call.id, error: err instanceof Error ? err.message : String(err) } satisfies IndexAnswer);
  }
});
