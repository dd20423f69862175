/**
 * The hot path of /api/portal: a fresh cache hit answered straight from the Node
 * request, before Express and its middleware run, with the answer's codings and headers
 * prepared once per cache entry (the same headers the router sends). Anything else
 * (misses, stale entries, refusals, reader calls, an entry not prepared yet) returns
 * false and Express answers it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { API_PREFIX } from "../../shared/api-calls.ts";
import type { CachedAnswer, ResponseCache } from "../cache/response-cache.ts";
import { memoByUrl } from "../http/memo-by-url.ts";
import { type PreparedAnswer, prepareAnswer, sendPrepared } from "../http/prepared-answer.ts";
import { resolveApiRequest } from "./resolve-request.ts";
import { apiCacheControl } from "./router.ts";

export interface ApiFastPathDeps {
  cache: ResponseCache;
  classifyPaths: ReadonlySet<string>;
  /** Headers every answer of the app carries (security headers). */
  commonHeaders: readonly (readonly [string, string])[];
  staleMs: number;
  /** Longer request targets are Express's to refuse. */
  maxUrlLength: number;
}

export function createApiFastPath({ cache, classifyPaths, commonHeaders, staleMs, maxUrlLength }: ApiFastPathDeps) {
  const prefix = `${API_PREFIX}/`;
  const answerHeaders = [...commonHeaders, ["Content-Type", "application/json; charset=utf-8"], ["Vary", "Accept-Encoding"]] as const;
  // Keyed by the cache's own entry: a refreshed entry is a new object, so nothing prepared outlives its data.
  const prepared = new WeakMap<CachedAnswer, PreparedAnswer>();
  const preparing = new WeakSet<CachedAnswer>();

  function prepare(answer: CachedAnswer): void {
    if (preparing.has(answer)) return;
    preparing.add(answer);
    prepareAnswer(answer.status, answer.body, answer.etag, answerHeaders).then(
      (ready) => prepared.set(answer, ready),
      // Compression of bytes in memory does not fail in practice; if it did, Express keeps answering.
      () => undefined,
    );
  }

  /** The cache key a GET of this URL reads, or undefined when it is not a cached call. */
  const cacheKeyOf = memoByUrl((url): string | undefined => {
    const q = url.indexOf("?");
    const path = url.slice(API_PREFIX.length, q === -1 ? undefined : q);
    const resolved = resolveApiRequest("GET", path, new URLSearchParams(q === -1 ? "" : url.slice(q + 1)), classifyPaths);
    return resolved.kind === "get" && resolved.call.id !== "readerCount" ? resolved.key : undefined;
  });

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? "";
    if ((req.method !== "GET" && req.method !== "HEAD") || !url.startsWith(prefix) || url.length > maxUrlLength) return false;
    const key = cacheKeyOf(url);
    if (key === undefined) return false;
    const hit = cache.peekFresh(key);
    if (!hit) return false;
    const answer = prepared.get(hit.answer);
    if (!answer) {
      prepare(hit.answer);
      return false;
    }
    cache.countHit();
    sendPrepared(req, res, answer, [
      "Cache-Control",
      apiCacheControl({ status: "HIT", freshForMs: hit.freshForMs }, staleMs),
      "X-Cache",
      "HIT",
    ]);
    return true;
  };
}
