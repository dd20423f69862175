// The server's one cache: a byte-bounded LRU with stale-while-revalidate, one load per key, TinyLFU admission,
// tags and purges, and an optional second level (docs/behaviour.md#api-cache, #admission, #purging).
import { LRUCache } from "lru-cache";
import { FrequencySketch } from "./frequency-sketch.ts";
import { InFlight } from "./in-flight.ts";
import { PurgeWatches } from "./purge-watches.ts";
import type { CacheOutcome, CacheStats, Load, Loaded, PurgeMode, PurgeSelector, PurgeWatch, Refresh, SecondLevel } from "./swr-types.ts";
import { TagIndex } from "./tag-index.ts";

export type {
  CacheOutcome,
  CacheStats,
  CacheStatus,
  Load,
  Loaded,
  PurgeMode,
  PurgeSelector,
  PurgeWatch,
  SecondLevel,
} from "./swr-types.ts";

interface SwrCacheOptions<V> {
  maxBytes: number;
  staleMs: number;
  sizeOf: (value: V, key: string) => number;
  now?: () => number;
  /** Entries kept apart in a bound of 1/share of maxBytes. */
  oneOff?: { share: number; holds: (value: V) => boolean };
  onRefreshError?: (key: string, err: unknown) => void;
  tagsOfKey?: (key: string) => readonly string[];
  secondLevel?: SecondLevel<V>;
  admission?: boolean;
}

interface Entry<V> {
  value: V;
  freshUntil: number;
  staleUntil: number;
  tags: readonly string[];
}

const NO_TAGS: readonly string[] = [];

export class SwrCache<V> {
  readonly staleMs: number;
  readonly now: () => number;
  private readonly main: LRUCache<string, Entry<V>>;
  private readonly oneOff: LRUCache<string, Entry<V>> | undefined;
  private readonly inflight = new InFlight<Loaded<V>>();
  /** Loads a purge took out of `inflight` (new requests start their own), still running. */
  private readonly detached = new Set<Promise<Loaded<V>>>();
  private readonly watches = new PurgeWatches();
  private readonly tagIndex = new TagIndex();
  private readonly options: SwrCacheOptions<V>;
  private hits = 0;
  private misses = 0;
  private stale = 0;
  private evictions = 0;
  private refused = 0;
  private readonly sketch: FrequencySketch | undefined;

  constructor(options: SwrCacheOptions<V>) {
    this.options = options;
    this.staleMs = options.staleMs;
    this.now = options.now ?? Date.now;
    const sizeCalculation = (entry: Entry<V>, key: string) => options.sizeOf(entry.value, key);
    // Any removal leaves the tag index; only an eviction (pushed out to make room) is counted.
    const dispose = (entry: Entry<V>, key: string, reason: LRUCache.DisposeReason) => {
      this.tagIndex.remove(key, entry.tags);
      if (reason === "evict") this.evictions++;
    };
    this.main = new LRUCache({ maxSize: options.maxBytes, sizeCalculation, dispose });
    this.oneOff = options.oneOff
      ? new LRUCache({ maxSize: Math.max(1, Math.floor(options.maxBytes / options.oneOff.share)), sizeCalculation, dispose })
      : undefined;
    this.sketch = options.admission ? new FrequencySketch(Math.min(2 ** 20, Math.max(1024, options.maxBytes / 4096))) : undefined;
  }

  /** The hot path's one read: counts a hit only; a miss is counted by the `lookup` or `get` that follows. */
  fresh(key: string): CacheOutcome<V> | undefined {
    const entry = this.main.get(key) ?? this.oneOff?.get(key);
    if (!entry) return undefined;
    const freshForMs = entry.freshUntil - this.now();
    if (freshForMs <= 0) return undefined;
    this.sketch?.increment(key);
    this.hits++;
    return { value: entry.value, status: "HIT", freshForMs };
  }

  lookup(key: string, refresh: Refresh<V>): CacheOutcome<V> | undefined {
    this.sketch?.increment(key);
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

  async get(key: string, load: Load<V>): Promise<CacheOutcome<V>> {
    const cached = this.lookup(key, load);
    if (cached) return cached;
    const loaded = await this.inflight.share(key, () => this.loadUnshared(key, load));
    if (loaded.madeAt === undefined) return { value: loaded.value, status: "MISS", freshForMs: loaded.freshForMs ?? 0 };
    // Made elsewhere earlier: fresh for what is left of its time, else a stale answer (the second level's, given when the upstream failed).
    const freshForMs = Math.max(0, loaded.madeAt + (loaded.freshForMs ?? 0) - this.now());
    return { value: loaded.value, status: freshForMs > 0 ? "MISS" : "STALE", freshForMs };
  }

  /** For background work (a page's re-render): the freshest value, else a stale entry when the load fails. */
  async current(key: string, load: Load<V>): Promise<CacheOutcome<V>> {
    const hit = this.fresh(key);
    if (hit) return hit;
    const entry = this.main.peek(key) ?? this.oneOff?.peek(key);
    const stale = entry && this.now() < entry.staleUntil ? entry : undefined;
    if (stale) this.stale++;
    else this.misses++;
    try {
      const loaded = await (this.inflight.get(key) ?? this.load(key, load));
      return { value: loaded.value, status: "MISS", freshForMs: loaded.freshForMs ?? 0 };
    } catch (err) {
      if (!stale) throw err;
      return { value: stale.value, status: "STALE", freshForMs: 0 };
    }
  }

  /** Stores a value made outside `get` (a page is sent as soon as rendered, kept once compressed). */
  async fill(key: string, load: Load<V>): Promise<void> {
    if (!this.inflight.has(key)) await this.load(key, load);
  }

  /** Takes the second level's fresh entry of `key` into this level: true when there was one (a `get` then hits). */
  async adopt(key: string): Promise<boolean> {
    const loaded = await this.options.secondLevel?.fresh(key);
    if (loaded?.freshForMs === undefined) return false;
    this.store(key, loaded.value, loaded.freshForMs, this.options.tagsOfKey?.(key) ?? NO_TAGS, loaded.madeAt);
    return true;
  }

  startsLoad(key: string): boolean {
    if (this.inflight.has(key)) return false;
    const entry = this.main.peek(key) ?? this.oneOff?.peek(key);
    return entry === undefined || this.now() >= entry.staleUntil;
  }

  private load(key: string, load: Load<V>): Promise<Loaded<V>> {
    return this.inflight.start(key, () => this.loadUnshared(key, load));
  }

  private loadUnshared(key: string, load: Load<V>): Promise<Loaded<V>> {
    const watch = this.watch(key);
    const { secondLevel } = this.options;
    return (secondLevel ? secondLevel.load(key, load) : load())
      .then((loaded) => {
        const tags = loaded.tags ?? watch.tags;
        const outdated = [watch, loaded.since].some((w) => w && (w.purged || tags.some((tag) => w.purgedTags.has(tag))));
        if (loaded.freshForMs !== undefined && !outdated) this.store(key, loaded.value, loaded.freshForMs, tags, loaded.madeAt);
        return loaded;
      })
      .finally(() => this.unwatch(watch));
  }

  private store(key: string, value: V, freshForMs: number, tags: readonly string[], madeAt?: number): void {
    const from = madeAt ?? this.now();
    const entry = { value, freshUntil: from + freshForMs, staleUntil: from + freshForMs + this.staleMs, tags };
    // A value made elsewhere may be past even its stale window by now.
    if (madeAt !== undefined && entry.staleUntil <= this.now()) return;
    const oneOff = this.oneOff && this.options.oneOff?.holds(value);
    // An entry that turned one-off (or back) leaves the other bound.
    (oneOff ? this.main : this.oneOff)?.delete(key);
    const store = (oneOff ? this.oneOff : undefined) ?? this.main;
    if (store === this.main && !this.admits(key, entry)) {
      this.refused++;
      return;
    }
    store.set(key, entry);
    // An entry too large for the bound is not kept, and so not indexed.
    if (store.peek(key) === entry) this.tagIndex.add(key, tags);
  }

  private admits(key: string, entry: Entry<V>): boolean {
    if (!this.sketch || this.main.has(key)) return true;
    const size = this.options.sizeOf(entry.value, key);
    let room = this.options.maxBytes - this.main.calculatedSize;
    if (size <= room) return true;
    const wanted = this.sketch.estimate(key);
    for (const victim of this.main.rkeys()) {
      // A tie keeps the entry in place, except among keys seen about once (a crawl): they take turns, as in an LRU.
      const held = this.sketch.estimate(victim);
      if (held > wanted || (held === wanted && held > 1)) return false;
      room += this.main.info(victim)?.size ?? 0;
      if (size <= room) return true;
    }
    return false;
  }

  /** Watches for purges of `key` while work that may end in a store runs (a render); passed on as `Loaded.since`. */
  watch(key: string): PurgeWatch {
    return this.watches.watch(key, this.options.tagsOfKey?.(key) ?? NO_TAGS);
  }

  unwatch(watch: PurgeWatch): void {
    this.watches.unwatch(watch);
  }

  tagsOf(key: string): readonly string[] | undefined {
    return (this.main.peek(key) ?? this.oneOff?.peek(key))?.tags;
  }

  /** Soft marks entries stale, hard drops them; either way loads under way for them are not stored. Returns the count. */
  purge(selector: PurgeSelector, mode: PurgeMode): number {
    const keys = "tag" in selector ? this.tagIndex.keysOf(selector.tag) : [...this.main.keys(), ...(this.oneOff?.keys() ?? [])];
    const picked = "keys" in selector ? keys.filter(selector.keys) : keys;
    const now = this.now();
    if (picked.length > 0) this.options.secondLevel?.forget(picked);
    for (const key of picked) {
      if (mode === "hard") {
        this.main.delete(key);
        this.oneOff?.delete(key);
        continue;
      }
      const entry = this.main.peek(key) ?? this.oneOff?.peek(key);
      if (entry) entry.freshUntil = Math.min(entry.freshUntil, now);
    }
    for (const key of this.watches.purged(selector)) this.detach(key);
    return picked.length;
  }

  /** A load a purge made out of date is no longer shared: the requests that follow start their own. */
  private detach(key: string): void {
    const pending = this.inflight.letGo(key);
    if (!pending) return;
    this.detached.add(pending);
    const settled = () => this.detached.delete(pending);
    pending.then(settled, settled);
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
      evictions: this.evictions,
      shared: this.inflight.joined,
      refused: this.refused,
    };
  }

  get loading(): number {
    return this.inflight.size + this.detached.size;
  }

  async idle(): Promise<void> {
    while (this.loading > 0) await Promise.allSettled([...this.inflight.values(), ...this.detached]);
  }

  clear(): void {
    this.main.clear();
    this.oneOff?.clear();
  }
}
