/**
 * The code of the content API's threads (started by server/content/api-thread.ts).
 * "prepare": opens the database (migrating it), loads the demo site into an empty one
 * (unless SEED_CONTENT=none), closes it and ends, so what loading took goes with the thread. "serve": serves the API
 * on loopback, answers readiness pings, says when another import landed in the database,
 * and closes the API and then the database when asked.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createLogger } from "../logger.ts";
import { DEMO_SITE_FILE } from "../project-root.ts";
import { startContentApi } from "./api.ts";
import { type FromThread, type PreparedContent, type ThreadData, type ToThread, threadErrorOf } from "./api-thread-messages.ts";
import { openContentDb } from "./db.ts";
import { getClassifyMenus, getImportMark } from "./store.ts";

if (!parentPort) throw new Error("the content API runs as a worker thread");

/**
 * How often the serving thread reads the import mark: a one-row read by primary key, so an
 * import is live within about this long in every process using the database, each seeing it
 * itself (every worker, every instance), without a channel between them.
 */
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

async function serve(databaseUrl: string, logs: ThreadData["logs"]): Promise<void> {
  const content = await openContentDb(databaseUrl);
  const api = await startContentApi(content, {
    onError: (error) => say({ type: "error", error: threadErrorOf(error) }),
    logger: logs ? createLogger(logs.level, { readable: logs.readable }) : undefined,
  });
  let mark = await getImportMark(content);
  const watching = setInterval(() => {
    getImportMark(content).then(
      (now) => {
        if (now === mark) return;
        mark = now;
        say({ type: "content-changed" });
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
      // The API first (it waits for its requests in flight), then the database they use.
      void api
        .close()
        .finally(() => content.close())
        .finally(() => port.close());
    }
  });
  say({ type: "ready", url: api.url, dialect: content.dialect, classify: await getClassifyMenus(content) });
}

const { task, databaseUrl, logs, seed } = workerData as ThreadData;
(task === "prepare" ? prepare(databaseUrl, seed) : serve(databaseUrl, logs)).catch((error: unknown) => {
  say({ type: "failed", error: threadErrorOf(error) });
  port.close();
});
