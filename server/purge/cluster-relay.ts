/** Purge fan-out between a cluster's workers, through the primary (docs/behaviour.md#purging, "Fan-out"). */
import cluster from "node:cluster";
import type { PurgeRequest } from "./purge-request.ts";
import type { Purger } from "./purger.ts";

const PURGE_MESSAGE = "portal:purge";

interface PurgeMessage {
  type: typeof PURGE_MESSAGE;
  request: PurgeRequest;
}

export function isPurgeMessage(message: unknown): message is PurgeMessage {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === PURGE_MESSAGE;
}

/** A no-op outside a cluster. */
export function joinClusterPurges(purger: Purger): void {
  if (!cluster.isWorker) return;
  purger.onPurge((request, origin) => {
    if (origin === "local") process.send?.({ type: PURGE_MESSAGE, request } satisfies PurgeMessage);
  });
  process.on("message", (message: unknown) => {
    if (isPurgeMessage(message)) purger.purge(message.request, "cluster");
  });
}
