/**
 * The one purge function, on this process's API and page caches whatever brought the purge
 * (docs/behaviour.md#purging). Fan-out channels subscribe with `onPurge` and pass on only `local` purges.
 */

import { API_PREFIX } from "../../shared/call-table.ts";
import { keyLangOf } from "../../shared/data-keys.ts";
import { BASE_PATH } from "../../shared/routes.ts";
import { classifyPathsOf, resolveApiRequest } from "../api-proxy/resolve-request.ts";
import { growingLru } from "../cache/growing-lru.ts";
import type { ResponseCache } from "../cache/response-cache.ts";
import type { PurgeSelector } from "../cache/swr-cache.ts";
import type { PageCache } from "../pages/page-cache.ts";
import { keyRestOf, pageKeyRestOf } from "../pages/page-cache-key.ts";
import { TIMESTAMP_TOLERANCE_S } from "./purge-auth.ts";
import type { PurgeRequest } from "./purge-request.ts";

type PurgeOrigin = "local" | "cluster" | "remote" | "content";

/** Entries purged in this process (an entry holding two purged tags counts under both). */
interface PurgeResult {
  mode: PurgeRequest["mode"];
  all?: number;
  tags: Record<string, number>;
  paths: Record<string, number>;
}

type PurgeListener = (request: PurgeRequest, origin: PurgeOrigin) => void;

export interface Purger {
  purge(request: PurgeRequest, origin: PurgeOrigin): PurgeResult;
  /** Within the replay window. */
  seen(id: string): boolean;
  onPurge(listener: PurgeListener): void;
}

interface PurgerDeps {
  cache: ResponseCache;
  pageCache?: PageCache;
  classify?: readonly { api: string }[];
  contentLang?: boolean;
}

/** The whole window a timestamp may fall in, either side of now. */
export const SEEN_FOR_MS = 2 * TIMESTAMP_TOLERANCE_S * 1000;
/** Only signed purges are remembered, so it is never reached by accident. */
const MAX_SEEN_IDS = 10_000;

export function createPurger({ cache, pageCache, classify, contentLang = false }: PurgerDeps): Purger {
  const classifyPaths = classifyPathsOf(classify);
  const seenIds = growingLru<string, true>(MAX_SEEN_IDS, { ttl: SEEN_FOR_MS });
  const listeners: PurgeListener[] = [];

  const purgeBoth = (selector: PurgeSelector, mode: PurgeRequest["mode"]) =>
    cache.purge(selector, mode) + (pageCache?.purge(selector, mode) ?? 0);

  /** In every language. */
  function purgePath(path: string, mode: PurgeRequest["mode"]): number {
    if (path.startsWith(`${API_PREFIX}/`)) {
      const q = path.indexOf("?");
      const callPath = path.slice(API_PREFIX.length, q === -1 ? undefined : q);
      const query = new URLSearchParams(q === -1 ? "" : path.slice(q + 1));
      const resolved = resolveApiRequest("GET", callPath, query, classifyPaths, contentLang);
      if (resolved.kind !== "get") return 0;
      const plain = keyLangOf(resolved.key).key;
      return cache.purge({ keys: (key) => keyLangOf(key).key === plain }, mode);
    }
    const rest = pageKeyRestOf(path.slice(BASE_PATH.length));
    return rest === null || !pageCache ? 0 : pageCache.purge({ keys: (key) => keyRestOf(key) === rest }, mode);
  }

  return {
    purge(request, origin) {
      if (request.id !== undefined) seenIds.set(request.id, true);
      const result: PurgeResult = { mode: request.mode, tags: {}, paths: {} };
      if (request.all) result.all = purgeBoth({ all: true }, request.mode);
      for (const tag of request.tags) result.tags[tag] = purgeBoth({ tag }, request.mode);
      for (const path of request.paths) result.paths[path] = purgePath(path, request.mode);
      for (const listener of listeners) listener(request, origin);
      return result;
    },
    seen: (id) => seenIds.has(id),
    onPurge: (listener) => listeners.push(listener),
  };
}
