// Writes a cached page before Express or inside it alike (docs/behaviour.md#hot-path).
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendPrepared } from "../cache/prepared-answer.ts";
import type { CacheOutcome } from "../cache/swr-cache.ts";
import type { CachedPage } from "./page-cache.ts";

export function pageCacheControl(freshForMs: number, staleMs: number): string {
  const stale = Math.floor(staleMs / 1000);
  // Browsers revalidate every time (a cheap 304); shared caches may keep it as long as we would.
  return `public, max-age=0, s-maxage=${Math.max(0, Math.floor(freshForMs / 1000))}, stale-while-revalidate=${stale}, stale-if-error=${stale}`;
}

export function sendCachedPage(req: IncomingMessage, res: ServerResponse, cached: CacheOutcome<CachedPage>, staleMs: number): void {
  sendPrepared(req, res, cached.value.answer, [
    "Cache-Control",
    pageCacheControl(cached.freshForMs, staleMs),
    "X-Page-Cache",
    cached.status,
  ]);
}
