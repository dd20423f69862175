/**
 * Rendered pages, kept as answers ready to send: the HTML with its gzip and brotli forms
 * (compressed once per entry, never per request), its ETag, and the exact headers the
 * app sent with it, in the one stale-while-revalidate cache (swr-cache.ts), bounded in
 * bytes like the API cache. An entry is fresh only as long as the freshest-expiring
 * answer it was rendered from, then served stale while one re-render runs, up to the
 * stale window.
 *
 * Not-found pages are one-off entries, kept in a bound of their own (a sixteenth of the
 * bytes) and compressed at the cheapest level: anyone can ask for endless unknown ids,
 * and those must neither push real pages out nor cost a level-9 compression each.
 */
import { createHash } from "node:crypto";
import { type PreparedAnswer, prepareAnswer } from "../cache/prepared-answer.ts";
import { SwrCache } from "../cache/swr-cache.ts";

export interface CachedPage {
  answer: PreparedAnswer;
  /** Everything the app sent but the per-response headers (length, coding, validators, freshness, request id). */
  headers: [string, string][];
}

export type PageCache = SwrCache<CachedPage>;

export interface PageToStore {
  status: number;
  body: Buffer;
  etag: string;
  headers: [string, string][];
}

/** Weak: the same entity in any content coding. */
export function weakEtagOf(body: Buffer): string {
  return `W/"${createHash("sha1").update(body).digest("base64url")}"`;
}

interface PageCacheOptions {
  maxBytes: number;
  staleMs: number;
  now?: () => number;
  onRefreshError?: (key: string, err: unknown) => void;
}

const sizeOf = (page: CachedPage, key: string) => page.answer.bytes + key.length * 2 + 1024;

/** Not-found pages get this fraction (1/n) of the byte bound, on top of it. */
const NOT_FOUND_SHARE = 16;

const isNotFound = (page: CachedPage) => page.answer.status === 404;

export function createPageCache(options: PageCacheOptions): PageCache {
  return new SwrCache({ ...options, sizeOf, oneOff: { share: NOT_FOUND_SHARE, holds: isNotFound }, admission: true });
}

/** A rendered page as the cache keeps it: compressed once, at the cheapest level for a not-found page. */
export async function cachedPageOf(page: PageToStore): Promise<CachedPage> {
  const answer = await prepareAnswer(page.status, page.body, page.etag, page.headers, page.status === 404 ? "fast" : "full");
  return { answer, headers: page.headers };
}
