/**
 * Generated results (a sitemap, a feed, the readiness check), kept a while in the one
 * cache (swr-cache.ts), so clients asking again and again get the same one instead of
 * making it regenerate per request; requests that arrive while it is being generated
 * share that one generation. A failed generation is not kept, and nothing is served
 * stale: a result past its time is made again.
 */
import { SwrCache } from "./swr-cache.ts";

/** A handful of keys; the bound only stops a runaway result from growing without limit. */
const MAX_BYTES = 64 * 1024 * 1024;

/** Text by its length; anything else (a small object) at a flat kilobyte. */
const sizeOf = (value: unknown, key: string) => (typeof value === "string" ? value.length * 2 : 1024) + key.length * 2;

export function createGeneratedCache<T>(now?: () => number): SwrCache<T> {
  return new SwrCache<T>({ maxBytes: MAX_BYTES, staleMs: 0, sizeOf, now });
}
