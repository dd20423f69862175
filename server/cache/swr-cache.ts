/**
 * The one cache of the server: a byte-bounded LRU (lru-cache underneath) with
 * stale-while-revalidate and request de-duplication. The API cache, the page cache and
 * the generated documents (sitemap, feeds, readiness) are each one of these.
 * - fresh entry: HIT;
 * - past its freshness but within the stale window: STALE, while one background refresh
 *   runs (a failed refresh leaves the stale entry in place, so failures are answered
 *   from it until the window closes);
 * - otherwise: MISS, and concurrent misses for one key share one load.
 * Loads that throw or come back with no freshness at all are never stored.
 *
 * Entries a caller marks one-off (such as not-found answers, which anyone can make new
 * ones of at will) are kept in a bound of their own, a share of the bytes on top of the
 * main one, so a flood of them never pushes the others out.
 */
import { LRUCache } from "lru-cache";

export type CacheStatus = "HIT" | "MISS" | "STALE";

/** What a load gives: the value, and how long it stays fresh (absent: never stored; 0: stored, stale at once). */
export interface Loaded<V> {
  value: V;
  freshForMs?: number;
}

export interface CacheOutcome<V> {
  value: V;
  status: CacheStatus;
  /** Milliseconds the value stays fresh (0 when stale or not stored). */
  freshForMs: number;
}

export type Load<V> = () => Promise<Loaded<V>>;
/** Makes a stale entry fresh again; it is given the stale value (to keep what it need not make again). */
export type Refresh<V> = (stale: V) => Promise<Loaded<V>>;

export interface CacheStats {
  entries: number;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
  stale: number;
  hitRatio: number;
}

export interface SwrCacheOptions<V> {
  maxBytes: number;
  staleMs: number;
  /** Bytes an entry holds, key included. */
  sizeOf: (value: V, key: string) => number;
  now?: () => number;
  /** Entries kept apart in a bound of 1/share of maxBytes. */
  oneOff?: { share: number; holds: (value: V) => boolean };
  onRefreshError?: (key: string, err: unknown) => void;
}

interface Entry<V> {
  value: V;
  freshUntil: number;
  staleUntil: number;
}

export class SwrCache<V> {
  readonly staleMs: number;
  readonly now: () => number;
  private readonly main: LRUCache<string, Entry<V>>;
  private readonly oneOff: LRUCache<string, Entry<V>> | undefined;
  private readonly inflight = new Map<string, Promise<Loaded<V>>>();
  private readonly options: SwrCacheOptions<V>;
  private hits = 0;
  private misses = 0;
  private stale = 0;

  constructor(options: SwrCacheOptions<V>) {
    this.options = options;
    this.staleMs = options.staleMs;
    this.now = options.now ?? Date.now;
    const sizeCalculation = (entry: Entry<V>, key: string) => options.sizeOf(entry.value, key);
    this.main = new LRUCache({ maxSize: options.maxBytes, sizeCalculation });
    this.oneOff = options.oneOff
      ? new LRUCache({ maxSize: Math.max(1, Math.floor(options.maxBytes / options.oneOff.share)), sizeCalculation })
      : undefined;
  }

  /** The hot path's one read: a fresh entry, counted as a hit, or undefined (nothing counted; the caller goes on to `lookup` or `get`). */
  fresh(key: string): CacheOutcome<V> | undefined {
    const entry = this.main.get(key) ?? this.oneOff?.get(key);
    if (!entry) return undefined;
    const freshForMs = entry.freshUntil - this.now();
    if (freshForMs <= 0) return undefined;
    this.hits++;
    return { value: entry.value, status: "HIT", freshForMs };
  }

  /**
   * A fresh or stale entry, counted; a stale one starts `refresh` unless a load of the
   * key is under way. Undefined (counted as a miss) when there is neither.
   */
  lookup(key: string, refresh: Refresh<V>): CacheOutcome<V> | undefined {
    const store = this.oneOff?.has(key) ? this.oneOff : this.main;
    const entry = store.get(key);
    const now = this.now();
    if (entry && now < entry.freshUntil) {
      this.hits++;
      return { value: entry.value, status: "HIT", freshForMs: entry.freshUntil - now };
    }
    if (entry && now < entry.staleUntil) {
      this.stale++;
      if (!this.inflight.has(key)) this.load(key, () => refresh(entry.value)).catch((err) => this.options.onRefreshError?.(key, err));
      return { value: entry.value, status: "STALE", freshForMs: 0 };
    }
    if (entry) store.delete(key);
    this.misses++;
    return undefined;
  }

  /** Read-through: `lookup`, else one load shared by every concurrent miss of the key. */
  async get(key: string, load: Load<V>): Promise<CacheOutcome<V>> {
    const cached = this.lookup(key, load);
    if (cached) return cached;
    const loaded = await (this.inflight.get(key) ?? this.load(key, load));
    return { value: loaded.value, status: "MISS", freshForMs: loaded.freshForMs ?? 0 };
  }

  /**
   * Stores what `load` gives, for values made outside `get` (a page is sent as soon as it
   * is rendered, and kept once compressed); skipped while a load of the key is under way.
   */
  async fill(key: string, load: Load<V>): Promise<void> {
    if (!this.inflight.has(key)) await this.load(key, load);
  }

  /** True when a `get` of `key` now would start a load: no fresh or stale entry, and no load of it under way to share. */
  startsLoad(key: string): boolean {
    if (this.inflight.has(key)) return false;
    const entry = this.main.peek(key) ?? this.oneOff?.peek(key);
    return entry === undefined || this.now() >= entry.staleUntil;
  }

  private load(key: string, load: Load<V>): Promise<Loaded<V>> {
    const pending = load()
      .then((loaded) => {
        if (loaded.freshForMs !== undefined) this.store(key, loaded.value, loaded.freshForMs);
        return loaded;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, pending);
    return pending;
  }

  private store(key: string, value: V, freshForMs: number): void {
    const storedAt = this.now();
    const entry = { value, freshUntil: storedAt + freshForMs, staleUntil: storedAt + freshForMs + this.staleMs };
    const oneOff = this.oneOff && this.options.oneOff?.holds(value);
    // An entry that turned one-off (or back) leaves the other bound.
    (oneOff ? this.main : this.oneOff)?.delete(key);
    ((oneOff ? this.oneOff : undefined) ?? this.main).set(key, entry);
  }

  stats(): CacheStats {
    const served = this.hits + this.misses + this.stale;
    return {
      entries: this.main.size + (this.oneOff?.size ?? 0),
      bytes: this.main.calculatedSize + (this.oneOff?.calculatedSize ?? 0),
      maxBytes: this.options.maxBytes,
      hits: this.hits,
      misses: this.misses,
      stale: this.stale,
      hitRatio: served === 0 ? 0 : Math.round(((this.hits + this.stale) / served) * 1000) / 1000,
    };
  }

  /** Loads and refreshes under way. */
  get loading(): number {
    return this.inflight.size;
  }

  /** Resolves once no load is under way, counting loads that start while it waits. */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight.values()]);
  }

  /** Forgets every entry (figures stay). */
  clear(): void {
    this.main.clear();
    this.oneOff?.clear();
  }
}
