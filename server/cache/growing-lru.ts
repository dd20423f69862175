/**
 * An LRU bounded by its number of entries that allocates as it fills. Given `max`,
 * lru-cache allocates storage for all of them up front (some 17 MB for the reader
 * de-duplication's 400,000 with their expiry times), which every process pays from its
 * start, however few clients come; bounded through `maxSize`, one unit per entry, it
 * grows with what it holds and evicts the same way.
 */
import { LRUCache } from "lru-cache";

type Options<K extends {}, V extends {}> = Omit<LRUCache.Options<K, V, unknown>, "max" | "maxSize" | "sizeCalculation">;

export function growingLru<K extends {}, V extends {}>(maxEntries: number, options: Options<K, V> = {}): LRUCache<K, V> {
  return new LRUCache<K, V>({ ...options, maxSize: maxEntries, sizeCalculation: () => 1 } as LRUCache.Options<K, V, unknown>);
}
