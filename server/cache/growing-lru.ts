// An LRU bounded by its number of entries that allocates as it fills: given `max`, lru-cache allocates
// for all of them up front, which every process would pay from its start.
import { LRUCache } from "lru-cache";

type Options<K extends {}, V extends {}> = Omit<LRUCache.Options<K, V, unknown>, "max" | "maxSize" | "sizeCalculation">;

export function growingLru<K extends {}, V extends {}>(maxEntries: number, options: Options<K, V> = {}): LRUCache<K, V> {
  return new LRUCache<K, V>({ ...options, maxSize: maxEntries, sizeCalculation: () => 1 } as LRUCache.Options<K, V, unknown>);
}
