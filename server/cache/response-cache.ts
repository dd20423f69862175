// The API cache (docs/behaviour.md#api-cache): upstream answers by call key, kept ready to send and parsed.
import { createHash } from "node:crypto";
import { cacheTagsOfKey } from "./cache-tags.ts";
import type { PreparedAnswer } from "./prepared-answer.ts";
import { type SecondLevel, SwrCache } from "./swr-cache.ts";

export interface CachedAnswer {
  status: number;
  body: Buffer;
  etag: string;
  json: unknown;
  ready: PreparedAnswer;
}

export type ResponseCache = SwrCache<CachedAnswer>;

interface ResponseCacheOptions {
  maxBytes: number;
  staleMs: number;
  now?: () => number;
  onRefreshError?: (key: string, err: unknown) => void;
  secondLevel?: SecondLevel<CachedAnswer>;
}

/** Body, parsed form, gzip and brotli: counting the body four times bounds them all. */
const sizeOf = (answer: CachedAnswer, key: string) => answer.body.length * 4 + key.length * 2 + 512;

export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  return new SwrCache({ ...options, sizeOf, tagsOfKey: cacheTagsOfKey, admission: true });
}

/** Weak: the answer is sent in three content codings, and a strong tag would have to differ per coding (RFC 9110 8.8.3). */
export function etagOf(body: Buffer): string {
  return `W/"${createHash("sha1").update(body).digest("base64url")}"`;
}
