/**
 * The server's side of the search index's thread (server/search/index-thread-main.ts):
 * every call is a message answered in turn. A thread that stops is started again at the
 * next call, from the index on disk; its failure is logged once and never a visitor's.
 */
import { Worker } from "node:worker_threads";
import type { Logger } from "../logger.ts";
import type { IndexAnswer, IndexCall, IndexCalls } from "./index-thread-main.ts";
import type { IndexFigures } from "./search-index.ts";

/** Tokenising makes short-lived garbage: a small young generation keeps the thread's RSS small. */
const THREAD_YOUNG_GENERATION_MB = 4;

function threadOf(file: string, cacheKb: number | undefined): Worker {
  const workerData = { file, cacheKb };
  const resourceLimits = { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB };
  if (!import.meta.url.endsWith(".ts"))
    return new Worker(new URL("./index-thread-main.js", import.meta.url), { workerData, resourceLimits });
  // From source, a thread needs the TypeScript loader too: the process's own flags do not register it there.
  const loader = import.meta.resolve("tsx/esm/api");
  const entry = new URL("./index-thread-main.ts", import.meta.url).href;
  const start = `import(${JSON.stringify(loader)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(start, { eval: true, workerData, resourceLimits });
}

export interface IndexThread {
  call<K extends keyof IndexCalls>(method: K, ...args: Parameters<IndexCalls[K]>): Promise<ReturnType<IndexCalls[K]>>;
  /** The figures of the last call that asked for them (read synchronously by the metrics). */
  figures(): IndexFigures;
  close(): Promise<void>;
}

export function startIndexThread(file: string, logger: Logger, cacheKb?: number): IndexThread {
  let worker: Worker | undefined;
  let nextId = 0;
  let closed = false;
  let figures: IndexFigures = { documents: 0, bytes: 0 };
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  function running(): Worker {
    if (worker) return worker;
    const started = threadOf(file, cacheKb);
    started.on("message", (answer: IndexAnswer) => {
      const waiting = pending.get(answer.id);
      if (!waiting) return;
      pending.delete(answer.id);
      if ("error" in answer) waiting.reject(new Error(answer.error));
      else waiting.resolve(answer.result);
    });
    started.on("error", (err) => logger.error({ err: err.message }, "search index thread failed"));
    started.on("exit", (code) => {
      if (worker === started) worker = undefined;
      const error = new Error(`the search index thread stopped (exit code ${code})`);
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
      if (!closed) logger.warn({ code }, "search index thread stopped; the next search starts it again");
    });
    worker = started;
    return started;
  }

  const thread: IndexThread = {
    call(method, ...args) {
      if (closed) return Promise.reject(new Error("search is closed"));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        running().postMessage({ id, method, args } as IndexCall);
      }).then((result) => {
        if (method === "figures") figures = result as IndexFigures;
        return result as never;
      });
    },
    figures: () => figures,
    async close() {
      closed = true;
      const stopping = worker;
      worker = undefined;
      if (!stopping) return;
      const exited = new Promise<void>((resolve) => stopping.once("exit", () => resolve()));
      stopping.postMessage({ method: "close" });
      await exited;
    },
  };
  return thread;
}
