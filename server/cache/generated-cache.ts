// Generated documents (sitemap, feeds, readiness check), kept a while and made once for concurrent requests;
// a failure is not kept and nothing is served stale (docs/behaviour.md#search-engines).
import { SwrCache } from "./swr-cache.ts";

/** A handful of keys: the bound only stops a runaway result. */
const MAX_BYTES = 64 * 1024 * 1024;

/** A string's UTF-16 bytes, or the bytes a document counts for itself, or a small record's estimate; and its key's. */
function sizeOf(value: unknown, key: string): number {
  if (typeof value === "string") return (value.length + key.length) * 2;
  const bytes = (value as { bytes?: unknown } | null)?.bytes;
  return (typeof bytes === "number" ? bytes : 1024) + key.length * 2;
}

export function createGeneratedCache<T>(now?: () => number): SwrCache<T> {
  return new SwrCache<T>({ maxBytes: MAX_BYTES, staleMs: 0, sizeOf, now });
}
