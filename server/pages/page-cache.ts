// Rendered pages kept as answers ready to send, in the one stale-while-revalidate cache; not-found pages in a
// bound of their own, compressed at the cheapest level (docs/behaviour.md#page-cache).
import { createHash } from "node:crypto";
import { compressFor, keepCompressedOnly, type PreparedAnswer, prepareAnswer } from "../cache/prepared-answer.ts";
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

const NOT_FOUND_SHARE = 16;

const isNotFound = (page: CachedPage) => page.answer.status === 404;

export function createPageCache(options: PageCacheOptions): PageCache {
  return new SwrCache({ ...options, sizeOf, oneOff: { share: NOT_FOUND_SHARE, holds: isNotFound }, admission: true });
}

/** Compressed now only as the client the page is rendered for takes it (`acceptEncoding`); other codings when first asked for. */
export async function cachedPageOf(page: PageToStore, acceptEncoding?: string): Promise<CachedPage> {
  const answer = await prepareAnswer(page.status, page.body, page.etag, page.headers, page.status === 404 ? "fast" : "full");
  compressFor(answer, acceptEncoding);
  keepCompressedOnly(answer);
  return { answer, headers: page.headers };
}
