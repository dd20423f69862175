// Sends a cached /api/portal answer, before Express or inside it alike (docs/behaviour.md#hot-path).
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendPrepared } from "../cache/prepared-answer.ts";
import type { CachedAnswer } from "../cache/response-cache.ts";
import type { CacheOutcome } from "../cache/swr-cache.ts";

export function apiAnswerHeaders(commonHeaders: readonly (readonly [string, string])[]): [string, string][] {
  return [
    ...commonHeaders.map(([name, value]): [string, string] => [name, value]),
    ["Content-Type", "application/json; charset=utf-8"],
    ["Vary", "Accept-Encoding"],
  ];
}

function apiCacheControl(outcome: Pick<CacheOutcome<unknown>, "status" | "freshForMs">, staleMs: number): string {
  const staleS = Math.floor(staleMs / 1000);
  if (outcome.status === "STALE") return `public, max-age=0, stale-while-revalidate=${staleS}, stale-if-error=${staleS}`;
  if (outcome.freshForMs <= 0) return "no-store";
  return `public, max-age=${Math.floor(outcome.freshForMs / 1000)}, stale-while-revalidate=${staleS}, stale-if-error=${staleS}`;
}

export function sendApiAnswer(req: IncomingMessage, res: ServerResponse, outcome: CacheOutcome<CachedAnswer>, staleMs: number): void {
  sendPrepared(req, res, outcome.value.ready, ["Cache-Control", apiCacheControl(outcome, staleMs), "X-Cache", outcome.status]);
}
