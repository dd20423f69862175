/**
 * The API cache (docs/behaviour.md#api-cache): upstream answers by call key, in the one
 * stale-while-revalidate cache (swr-cache.ts). Each answer is kept ready to send
 * (compressed once, its headers laid out) and parsed, so neither an HTTP client nor an
 * in-process reader ever makes it again. Each is tagged by its key (cache-tags.ts).
 */
import { createHash } from "node:crypto";
import { cacheTagsOfKey } from "./cache-tags.ts";
import type { PreparedAnswer } from "./prepared-answer.ts";
import { type SecondLevel, SwrCache } from "./swr-cache.ts";

export interface CachedAnswer {
  status: number;
  body: Buffer;
  etag: string;
  /** The parsed body, kept so in-process readers need not parse it again. */
  json: unknown;
  /** The answer as sent over HTTP, in each content coding. */
  ready: PreparedAnswer;
}

export type ResponseCache = SwrCache<CachedAnswer>;

interface ResponseCacheOptions {
  maxBytes: number;
  staleMs: number;
  now?: () => number;
  onRefreshError?: (key: string, err: unknown) => void;
  /** The level shared with other instances (REDIS_URL). */
  secondLevel?: SecondLevel<CachedAnswer>;
}

/** The body, its parsed form and its gzip and brotli forms: counting the bytes four times over bounds them all. */
const sizeOf = (answer: CachedAnswer, key: string) => answer.body.length * 4 + key.length * 2 + 512;

export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  return new SwrCache({ ...options, sizeOf, tagsOfKey: cacheTagsOfKey, admission: true });
}

/** Weak: the answer is sent in three content codings, and a strong tag would have to differ per coding (RFC 9110 8.8.3). */
export function etagOf(body: Buffer): string {
  return `W/"${createHash("sha1").update(body).digest("base64url")}"`;
}
