// The API cache (docs/behaviour.md#api-cache): upstream answers by call key, kept ready to send.
import { createHash } from "node:crypto";
import { cacheTagsOfKey } from "./cache-tags.ts";
import type { PreparedAnswer } from "./prepared-answer.ts";
import { type SecondLevel, SwrCache } from "./swr-cache.ts";

export interface CachedAnswer {
  status: number;
  /** JSON, read with `jsonOf`: its parsed form is not kept beside it. */
  body: Buffer;
  etag: string;
  ready: PreparedAnswer;
}

/**
 * The answer's JSON, parsed again at each read (null when the body is not JSON). Kept parsed, it took about as much
 * of the heap as the body takes outside it, for every entry, though only a render reads it (docs/behaviour.md#api-cache).
 */
export function jsonOf(answer: { body: Buffer }): unknown {
  try {
    return JSON.parse(answer.body.toString("utf8"));
  } catch {
    return null;
  }
}

export type ResponseCache = SwrCache<CachedAnswer>;

interface ResponseCacheOptions {
  maxBytes: number;
  staleMs: number;
  now?: () => number;
  onRefreshError?: (key: string, err: unknown) => void;
  secondLevel?: SecondLevel<CachedAnswer>;
}

/** Body, gzip and brotli, and the entry's headers, key and place in the indexes: counting the body four times bounds them all. */
const sizeOf = (answer: CachedAnswer, key: string) => answer.body.length * 4 + key.length * 2 + 512;

export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  return new SwrCache({ ...options, sizeOf, tagsOfKey: cacheTagsOfKey, admission: true });
}

/** Weak: the answer is sent in three content codings, and a strong tag would have to differ per coding (RFC 9110 8.8.3). */
export function etagOf(body: Buffer): string {
  return `W/"${createHash("sha1").update(body).digest("base64url")}"`;
}
