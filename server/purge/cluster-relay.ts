/**
 * Purge fan-out inside a process group (WEB_CONCURRENCY > 1): a worker sends each purge
 * it received itself to the cluster primary, which hands it to every other worker
 * (server/cluster.ts); each applies it as a `cluster` purge, so a purge reaches every
 * worker however the primary spread the connections. IPC messages arrive in
 * milliseconds.
 */
import cluster from "node:cluster";
import type { PurgeRequest } from "./purge-request.ts";
import type { Purger } from "./purger.ts";

const PURGE_MESSAGE = "portal:purge";

export interface PurgeMessage {
  type: typeof PURGE_MESSAGE;
  request: PurgeRequest;
}

export function isPurgeMessage(message: unknown): message is PurgeMessage {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === PURGE_MESSAGE;
}

/** In a cluster worker, sends its own purges to the primary and applies the others' (a no-op outside a cluster). */
export function joinClusterPurges(purger: Purger): void {
  if (!cluster.isWorker) return;
  purger.onPurge((request, origin) => {
    if (origin === "local") process.send?.({ type: PURGE_MESSAGE, request } satisfies PurgeMessage);
  });
  process.on("message", (message: unknown) => {
    if (isPurgeMessage(message)) purger.purge(message.request, "cluster");
  });
}
