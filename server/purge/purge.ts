// Purging as the app mounts it: the one purger, its fan-out (the search, other instances through Redis, the
// cluster's other workers through the primary) and the signed webhook (docs/behaviour.md#purging).
import cluster from "node:cluster";
import type { Router } from "express";
import type { ResponseCache } from "../cache/response-cache.ts";
import type { Config, PurgeSecret } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { PageCache } from "../pages/page-cache.ts";
import type { PubSub } from "../redis/pub-sub.ts";
import type { SharedTier } from "../redis/redis-connection.ts";
import type { PurgeRequest } from "./purge-request.ts";
import { createPurgeRouter } from "./purge-route.ts";
import { createPurger, type Purger } from "./purger.ts";
import { joinSharedPurges, type SharedPurges } from "./shared-purges.ts";

export type { Purger, SharedPurges };

const PURGE_MESSAGE = "portal:purge";

interface PurgeMessage {
  type: typeof PURGE_MESSAGE;
  request: PurgeRequest;
}

export function isPurgeMessage(message: unknown): message is PurgeMessage {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === PURGE_MESSAGE;
}

function joinClusterPurges(purger: Purger): void {
  if (!cluster.isWorker) return;
  purger.onPurge((request, origin) => {
    if (origin === "local") process.send?.({ type: PURGE_MESSAGE, request } satisfies PurgeMessage);
  });
  process.on("message", (message: unknown) => {
    if (isPurgeMessage(message)) purger.purge(message.request, "cluster");
  });
}

interface PurgeSettings {
  secrets: readonly PurgeSecret[];
  classify: Config["classify"];
  contentLang: boolean;
}

interface PurgeDeps {
  cache: ResponseCache;
  pageCache: PageCache | undefined;
  onPurge: (request: PurgeRequest) => void;
  channel: { connection: SharedTier; pubsub: PubSub } | undefined;
  logger: Logger;
  now?: () => number;
}

export function createPurge(
  settings: PurgeSettings,
  deps: PurgeDeps,
): { purger: Purger; sharedPurges: SharedPurges | undefined; router: Router } {
  const { cache, pageCache, channel, now } = deps;
  const purger = createPurger({ cache, pageCache, classify: settings.classify, contentLang: settings.contentLang });
  purger.onPurge(deps.onPurge);
  const sharedPurges = channel && joinSharedPurges(purger, channel.connection, channel.pubsub, deps.logger);
  joinClusterPurges(purger);
  const router = createPurgeRouter({ secrets: settings.secrets, purger, claimId: sharedPurges?.claimId, now });
  return { purger, sharedPurges, router };
}
