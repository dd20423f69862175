/** What the SWR cache takes and gives: loads and their outcomes, purges, the second level, its counts. */

export type CacheStatus = "HIT" | "MISS" | "STALE";

/** What a load gives: the value, and how long it stays fresh (absent: never stored; 0: stored, stale at once). */
export interface Loaded<V> {
  value: V;
  freshForMs?: number;
  tags?: readonly string[];
  /** Work the value was made from that began before this load did (a shared render): a purge since then keeps it out too. */
  since?: PurgeWatch;
  /** When a value made elsewhere (a second level's) was made: its freshness counts from then. */
  madeAt?: number;
}

/** What a purge may have made out of date since some work began (see `watch`). */
export interface PurgeWatch {
  readonly key: string;
  readonly tags: readonly string[];
  purged: boolean;
  readonly purgedTags: Set<string>;
}

export type PurgeMode = "soft" | "hard";

export type PurgeSelector = { all: true } | { tag: string } | { keys: (key: string) => boolean };

export interface CacheOutcome<V> {
  value: V;
  status: CacheStatus;
  freshForMs: number;
}

export type Load<V> = () => Promise<Loaded<V>>;
export type Refresh<V> = (stale: V) => Promise<Loaded<V>>;

export interface SecondLevel<V> {
  load(key: string, load: Load<V>): Promise<Loaded<V>>;
  fresh(key: string): Promise<Loaded<V> | undefined>;
  /** Drops its entries of `keys` (purged here), so their refreshes load anew instead of taking them back. */
  forget(keys: readonly string[]): void;
}

export interface CacheStats {
  entries: number;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
  stale: number;
  hitRatio: number;
  evictions: number;
  shared: number;
  refused: number;
}
