/**
 * The content API threads' code: "prepare" migrates and seeds the database, then ends;
 * "serve" serves the API on loopback (docs/decisions/0004-content-api-in-a-worker-thread.md).
 */
import { parentPort, workerData } from "node:worker_threads";
import { createLogger } from "../logger.ts";
import { DEMO_SITE_FILE } from "../project-root.ts";
import { startContentApi } from "./api.ts";
import { type FromThread, type PreparedContent, type ThreadData, type ToThread, threadErrorOf } from "./api-thread-messages.ts";
import { openContentDb } from "./db.ts";
import { startPublishTimer } from "./publish-timer.ts";
import { getClassifyMenus, getImportMark, nextPublishAt } from "./store.ts";

if (!parentPort) throw new Error("the content API runs as a worker thread");

/** Every process reads the import mark itself, so an import needs no channel between them. */
const IMPORT_POLL_MS = 1000;
const port = parentPort;
const say = (message: FromThread) => port.postMessage(message);

async function prepare(databaseUrl: string, seed: ThreadData["seed"]): Promise<void> {
  const content = await openContentDb(databaseUrl);
  try {
    // The site file's reader and schema are loaded here only, never by the serving thread.
    const { hasSite, loadSiteIfEmpty } = await import("./site-io.ts");
    let prepared: PreparedContent;
    if (seed === "none") prepared = (await hasSite(content)) ? "has-site" : "empty";
    else prepared = (await loadSiteIfEmpty(content, DEMO_SITE_FILE)) ? "loaded-demo" : "has-site";
    say({ type: "prepared", content: prepared });
  } finally {
    await content.close();
  }
  port.close();
}

async function serve(databaseUrl: string, logs: ThreadData["logs"], previewParam: string | undefined): Promise<void> {
  const content = await openContentDb(databaseUrl);
  const api = await startContentApi(content, {
    onError: (error) => say({ type: "error", error: threadErrorOf(error) }),
    logger: logs ? createLogger(logs.level, { readable: logs.readable }) : undefined,
    previewParam,
  });
  // Each process's thread keeps its own timer, so every process (and instance) sees a scheduled item appear.
  const publishing = startPublishTimer(
    (nowMs) => nextPublishAt(content, nowMs),
    () => say({ type: "content-changed", cause: "schedule" }),
  );
  let mark = await getImportMark(content);
  const watching = setInterval(() => {
    getImportMark(content).then(
      (now) => {
        if (now === mark) return;
        mark = now;
        publishing.reread();
        say({ type: "content-changed", cause: "import" });
      },
      // A database that does not answer is readiness's to report; the next read tries again.
      () => {},
    );
  }, IMPORT_POLL_MS);
  port.on("message", (message: ToThread) => {
    if (message.type === "ping") {
      content.ping().then(
        () => say({ type: "pong", id: message.id }),
        (error: unknown) => say({ type: "pong", id: message.id, error: threadErrorOf(error) }),
      );
    } else if (message.type === "close") {
      clearInterval(watching);
      publishing.close();
      void api
        .close()
        .finally(() => content.close())
        .finally(() => port.close());
    }
  });
  say({ type: "ready", url: api.url, dialect: content.dialect, classify: await getClassifyMenus(content) });
}

const { task, databaseUrl, logs, seed, previewParam } = workerData as ThreadData;
(task === "prepare" ? prepare(databaseUrl, seed) : serve(databaseUrl, logs, previewParam)).catch((error: unknown) => {
  say({ type: "failed", error: threadErrorOf(error) });
  port.close();
});
