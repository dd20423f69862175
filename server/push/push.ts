/**
 * Telling search engines which public addresses changed (docs/behaviour.md#telling-search-engines):
 * purges, imports and the search index's refresh name items, the items become their canonical page
 * addresses, and the addresses wait in the database's queue until an instance sends them.
 */
import type { Router } from "express";
import type { Registry } from "prom-client";
import type { UpstreamClient } from "../api-proxy/upstream-client.ts";
import type { PushConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { PurgeRequest } from "../purge/purge-request.ts";
import { BAIDU_BATCH, sendToBaidu } from "./baidu.ts";
import { createChangedItems } from "./changed-items.ts";
import { INDEXNOW_BATCH, sendToIndexNow } from "./indexnow.ts";
import { readItemVersions } from "./item-versions.ts";
import { keyFileRouter } from "./key-file.ts";
import { type ItemRef, itemOfPath, itemOfTag } from "./page-addresses.ts";
import { createPushMetrics } from "./push-metrics.ts";
import { createPushSender, type EngineLink } from "./push-sender.ts";
import { createPushStore } from "./push-store.ts";
import { enginesOf, queuePaths } from "./queue-paths.ts";

/** Where the key file is served, for what must leave it alone. */
export { keyFilePath } from "./key-file.ts";

export { queueAddressesByHand, queueImportChanges } from "./queue-from-cli.ts";

/** What the search index's refresh found of an item. */
export type ItemChange = "new" | "changed" | "gone";

export interface Push {
  /** Undefined without INDEXNOW_KEY. */
  keyFile: Router | undefined;
  /** A purge received by this instance (not one passed on by another): its items' addresses. */
  onPurge(request: PurgeRequest): void;
  /** The search index's refresh found an item new, changed or gone. */
  onItemChange(item: ItemRef, change: ItemChange): void;
  /** Settles once the items named so far are queued. */
  settled(): Promise<void>;
  start(): void;
  close(): Promise<void>;
}

interface PushDeps {
  upstream: UpstreamClient;
  contentLangParam: string | undefined;
  /** How long the search index's refresh waits between reads: an address it sent lately is not sent again. */
  refreshMs: number;
  logger: Logger;
  registry: Registry;
  now?: () => number;
  backoffBaseMs?: number;
  pollMs?: number;
}

const PRUNE_EVERY_MS = 3600_000;
/** Sent rows kept that long: longer than any SEARCH_REFRESH_MS, so refreshes on other instances see them. */
const KEEP_SENT_MS = 2 * 86_400_000;

export function createPush(config: PushConfig, databaseUrl: string, deps: PushDeps): Push {
  const { upstream, contentLangParam, logger, now = Date.now } = deps;
  const engines = enginesOf(config);
  const origin = config.publicOrigin;
  const keyFile = config.indexNow ? keyFileRouter(config.indexNow.key) : undefined;
  if (engines.length === 0 || origin === undefined) {
    const idle = () => {};
    return { keyFile, onPurge: idle, onItemChange: idle, settled: async () => {}, start: idle, close: async () => {} };
  }
  const store = createPushStore(databaseUrl);
  const events = createPushMetrics(deps.registry, engines, async () => (store.isOpen() ? store.oldestWaiting(engines) : undefined), now);
  const links: EngineLink[] = [];
  if (config.indexNow) {
    const settings = { ...config.indexNow, publicOrigin: origin };
    links.push({ engine: "indexnow", batch: INDEXNOW_BATCH, send: (urls, stop) => sendToIndexNow(settings, urls, stop) });
  }
  if (config.baidu) {
    const settings = { ...config.baidu, publicOrigin: origin };
    links.push({ engine: "baidu", batch: BAIDU_BATCH, send: (urls, stop) => sendToBaidu(settings, urls, stop) });
  }
  const sender = createPushSender({
    store,
    links,
    publicOrigin: origin,
    gatherMs: config.gatherMs,
    logger,
    events,
    now,
    backoffBaseMs: deps.backoffBaseMs,
    pollMs: deps.pollMs,
  });

  const items = createChangedItems({
    read: (item) => readItemVersions(upstream, contentLangParam, item),
    queue: async (paths, gone, fromRefresh) => {
      const at = now();
      // A refresh on each instance finds the same change: what one of them sent lately is not queued again.
      await queuePaths(store, config, paths, { now: at, gone, unlessSentSince: fromRefresh ? at - deps.refreshMs : undefined });
    },
    whenQueued: () => {
      if (config.gatherMs === 0) sender.kick();
    },
    logger,
  });

  let pruner: NodeJS.Timeout | undefined;
  const prune = () => {
    store.prune(now() - KEEP_SENT_MS).catch(() => {});
  };
  return {
    keyFile,
    onPurge(request) {
      // A purge of everything names no item: an import's changes come from the import itself.
      for (const tag of request.tags) {
        const item = itemOfTag(tag);
        if (item) items.name(item, "purge");
      }
      for (const path of request.paths) {
        const item = itemOfPath(path);
        if (item) items.name(item, "purge");
      }
    },
    onItemChange(item, change) {
      items.name(item, change === "gone" ? "refresh-gone" : "refresh");
    },
    settled: items.settled,
    start() {
      if (pruner) return;
      sender.start();
      prune();
      pruner = setInterval(prune, PRUNE_EVERY_MS).unref();
    },
    async close() {
      clearInterval(pruner);
      await items.close();
      await sender.stop();
      await store.close();
    },
  };
}
