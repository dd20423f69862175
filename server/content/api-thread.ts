/**
 * Starts the embedded content API in a worker thread of its own, so SQLite's synchronous
 * queries never hold up the server (docs/decisions/0004-content-api-in-a-worker-thread.md).
 */
import { Worker } from "node:worker_threads";
import type { ClassifyMenu } from "../../shared/entities.ts";
import type { FromThread, PreparedContent, ThreadData, ToThread } from "./api-thread-messages.ts";
import type { ContentDialect } from "./db.ts";

export interface ContentApiThread {
  /** The origin the content API listens on, e.g. http://127.0.0.1:41234 */
  url: string;
  dialect: ContentDialect;
  classify: ClassifyMenu[];
  /** Resolves when the database answers a query (readiness); rejects once the thread is gone. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

interface ContentApiThreadOptions {
  databaseUrl: string;
  logs?: ThreadData["logs"];
  /** Told about a failure the API answered with 500. */
  onError: (error: Error) => void;
  /** Told when the thread stops without being asked to. */
  onExit: (error: Error) => void;
  /** Told when another import landed in the database, or a scheduled item became due. */
  onContentChanged?: (cause: "import" | "schedule") => void;
  previewParam?: string;
}

/** V8's default young generation, sized for a main thread, would keep megabytes resident for nothing. */
const THREAD_YOUNG_GENERATION_MB = 2;

const PING_TIMEOUT_MS = 2000;

function threadOf(workerData: ThreadData): Worker {
  const resourceLimits = { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB };
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./api-thread-main.js", import.meta.url), { workerData, resourceLimits });
  // From source, a thread needs the TypeScript loader too: the process's own flags do not register it there.
  const loader = import.meta.resolve("tsx/esm/api");
  const entry = new URL("./api-thread-main.ts", import.meta.url).href;
  const start = `import(${JSON.stringify(loader)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(start, { eval: true, workerData, resourceLimits });
}

const errorOf = (message: { message: string; stack?: string }) => Object.assign(new Error(message.message), { stack: message.stack });

export function prepareContentDb(databaseUrl: string, seed: "demo" | "none"): Promise<PreparedContent> {
  const worker = threadOf({ task: "prepare", databaseUrl, seed });
  return new Promise((resolve, reject) => {
    let outcome: { content: PreparedContent } | Error | undefined;
    worker.on("message", (message: FromThread) => {
      if (message.type === "prepared") outcome = { content: message.content };
      else if (message.type === "failed") outcome = errorOf(message.error);
    });
    worker.on("error", (error) => {
      outcome ??= error;
    });
    worker.on("exit", (code) => {
      if (outcome instanceof Error) reject(outcome);
      else if (outcome) resolve(outcome.content);
      else reject(new Error(`preparing the content database stopped (exit code ${code})`));
    });
  });
}

export function startContentApiThread({
  databaseUrl,
  logs,
  onError,
  onExit,
  onContentChanged,
  previewParam,
}: ContentApiThreadOptions): Promise<ContentApiThread> {
  const worker = threadOf({ task: "serve", databaseUrl, logs, previewParam });
  const pings = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextPing = 0;
  let closing: Promise<void> | undefined;
  let gone: Error | undefined;
  const post = (message: ToThread) => worker.postMessage(message);

  return new Promise((resolveStart, rejectStart) => {
    let started = false;
    worker.on("message", (message: FromThread) => {
      switch (message.type) {
        case "ready":
          started = true;
          resolveStart({
            url: message.url,
            dialect: message.dialect,
            classify: message.classify,
            ping() {
              if (gone) return Promise.reject(gone);
              const id = nextPing++;
              return new Promise<void>((resolve, reject) => {
                // A thread busy with a long query must not leave readiness checks waiting.
                const timer = setTimeout(() => {
                  pings.delete(id);
                  reject(new Error(`the content database did not answer within ${PING_TIMEOUT_MS} ms`));
                }, PING_TIMEOUT_MS);
                const settle = (error?: Error) => {
                  clearTimeout(timer);
                  if (error) reject(error);
                  else resolve();
                };
                pings.set(id, { resolve: () => settle(), reject: settle });
                post({ type: "ping", id });
              });
            },
            close() {
              closing ??= gone
                ? Promise.resolve()
                : new Promise<void>((resolve) => {
                    worker.once("exit", () => resolve());
                    post({ type: "close" });
                  });
              return closing;
            },
          });
          break;
        case "pong": {
          const ping = pings.get(message.id);
          pings.delete(message.id);
          if (message.error) ping?.reject(errorOf(message.error));
          else ping?.resolve();
          break;
        }
        case "error":
          onError(errorOf(message.error));
          break;
        case "content-changed":
          onContentChanged?.(message.cause);
          break;
        case "failed":
          rejectStart(errorOf(message.error));
          break;
        case "prepared":
          break;
      }
    });
    worker.on("error", (error) => {
      if (!started) rejectStart(error);
      else gone = error;
    });
    worker.on("exit", (code) => {
      gone ??= new Error(`the content API thread stopped (exit code ${code})`);
      for (const ping of pings.values()) ping.reject(gone);
      pings.clear();
      if (!started) rejectStart(gone);
      else if (!closing) onExit(gone);
    });
  });
}
