/**
 * The content API thread's own code (started by server/content/api-thread.ts): opens the
 * database, loads the demo site into an empty one, serves the API on loopback, answers
 * readiness pings, and closes the API and then the database when asked.
 */
import { parentPort, workerData } from "node:worker_threads";
import { DEMO_SITE_FILE } from "../project-root.ts";
import { startContentApi } from "./api.ts";
import { type FromThread, type ToThread, threadErrorOf } from "./api-thread-messages.ts";
import { openContentDb } from "./db.ts";
import { getClassifyMenus, loadSiteIfEmpty } from "./store.ts";

if (!parentPort) throw new Error("the content API runs as a worker thread");
const port = parentPort;
const say = (message: FromThread) => port.postMessage(message);

async function main(databaseUrl: string): Promise<void> {
  const content = await openContentDb(databaseUrl);
  const loadedDemo = await loadSiteIfEmpty(content, DEMO_SITE_FILE);
  const api = await startContentApi(content, { onError: (error) => say({ type: "error", error: threadErrorOf(error) }) });
  port.on("message", (message: ToThread) => {
    if (message.type === "ping") {
      content.ping().then(
        () => say({ type: "pong", id: message.id }),
        (error: unknown) => say({ type: "pong", id: message.id, error: threadErrorOf(error) }),
      );
    } else if (message.type === "close") {
      // The API first (it waits for its requests in flight), then the database they use.
      void api
        .close()
        .finally(() => content.close())
        .finally(() => port.close());
    }
  });
  say({ type: "ready", url: api.url, dialect: content.dialect, classify: await getClassifyMenus(content), loadedDemo });
}

main((workerData as { databaseUrl: string }).databaseUrl).catch((error: unknown) => {
  say({ type: "failed", error: threadErrorOf(error) });
  port.close();
});
