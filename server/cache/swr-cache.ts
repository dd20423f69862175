/**
 * The one cache of the server: a byte-bounded LRU with stale-while-revalidate, one load per key,
 * TinyLFU admission, tags and purges, and an optional second level (docs/behaviour.md#api-cache,
 * #admission, #purging). The API cache, the page cache and the generated documents are each one.
 */
import { LRUCache } from "lru-cache";
import { FrequencySketch } from "./frequency-sketch.ts";
import { InFlight } from "./in-flight.ts";

export type CacheStatus = "HIT" | "MISS" | "STALE";

/** What a load gives: the value, and how long it stays fresh (absent: never stored; 0: stored, stale at once). */
export interface Loaded<V> {
  value: V;
  freshForMs?: number;
  /** Its tags; absent: the cache's `tagsOfKey`, if any. */
  tags?: readonly string[];
  /** Work the value was made from that began before this load did (a shared render): a purge since then keeps it out too. */
  since?: PurgeWatch;
  /** When the value was made, for one made earlier elsewhere (a second level's): its freshness counts from then, not now. */
  madeAt?: number;
}

/**
 * What a purge may have made out of date since some work began: set by purges while
 * the work is under way (see `watch`).
 */
export interface PurgeWatch {
  readonly key: string;
  /** Tags known when the work began. */
  readonly tags: readonly string[];
  /** A purge named this key, its known tags, or everything. */
  purged: boolean;
  /** Tags purged since; checked against the tags the work ends with. */
  readonly purgedTags: Set<string>;
}

export type PurgeMode = "soft" | "hard";

/** What a purge picks: every entry, the entries holding a tag, or the keys a test accepts. */
export type PurgeSelector = { all: true } | { tag: string } | { keys: (key: string) => boolean };

export interface CacheOutcome<V> {
  value: V;
  status: CacheStatus;
  /** Milliseconds the value stays fresh (0 when stale or not stored). */
  freshForMs: number;
}

export type Load<V> = () => Promise<Loaded<V>>;
/** Makes a stale entry fresh again; it is given the stale value (to keep what it need not make again). */
type Refresh<V> = (stale: V) => Promise<Loaded<V>>;

/** A level behind this cache. */
export interface SecondLevel<V> {
  /** What a miss or a refresh of `key` gets instead of running `load` itself. */
  load(key: string, load: Load<V>): Promise<Loaded<V>>;
  /** Its fresh entry of `key`, if it has one. */
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
  /** Entries pushed out to make room (not those that expired or were replaced). */
  evictions: number;
  /** Misses that joined a load of their key already under way instead of starting one. */
  shared: number;
  /** New keys not stored because each was asked for less often than what it would have pushed out. */
  refused: number;
}

interface SwrCacheOptions<V> {
  maxBytes: number;
  staleMs: number;
  /** Bytes an entry holds, key included. */
  sizeOf: (value: V, key: string) => number;
  now?: () => number;
  /** Entries kept apart in a bound of 1/share of maxBytes. */
  oneOff?: { share: number; holds: (value: V) => boolean };
  onRefreshError?: (key: string, err: unknown) => void;
  /** The tags of a key when its loads do not give their own. */
  tagsOfKey?: (key: string) => readonly string[];
  secondLevel?: SecondLevel<V>;
  /**
   * Admission (TinyLFU): when storing a new key would push entries out, it is stored only
   * if it was asked for lately more often than each entry it would push out (or as often,
   * among keys seen once), so keys seen once (a crawler's walk) replace each other but
   * never flush the ones read again and again.
   */
  admission?: boolean;
}

interface Entry<V> {
  value: V;
  freshUntil: number;
  staleUntil: number;
  tags: readonly string[];
}

/** Past this many tags purged under one piece of work, it counts as purged whatever its tags: the set stays small. */
const MAX_WATCHED_TAGS = 256;
const NO_TAGS: readonly string[] = [];

export class SwrCache<V> {
  readonly staleMs: number;
  readonly now: () => number;
  private readonly main: LRUCache<string, Entry<V>>;
  private readonly oneOff: LRUCache<string, Entry<V>> | undefined;
  private readonly inflight = new InFlight<Loaded<V>>();
  /** Loads a purge took out of `inflight` (new requests start their own), still running. */
  private readonly detached = new Set<Promise<Loaded<V>>>();
  private readonly watches = new Set<PurgeWatch>();
  /** Tag → keys of the stored entries that hold it. */
  private readonly tagIndex = new Map<string, Set<string>>();
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
    // Whatever takes an entry out (eviction, replacement, deletion) takes its keys out of the tag index;
    // only an eviction (pushed out to make room) is counted.
    const dispose = (entry: Entry<V>, key: string, reason: LRUCache.DisposeReason) => {
      this.unindex(key, entry.tags);
      if (reason === "evict") this.evictions++;
    };
    this.main = new LRUCache({ maxSize: options.maxBytes, sizeCalculation, dispose });
    this.oneOff = options.oneOff
      ? new LRUCache({ maxSize: Math.max(1, Math.floor(options.maxBytes / options.oneOff.share)), sizeCalculation, dispose })
      : undefined;
    // Sized for entries of 4 kB on average: a counter per entry the bound could hold, within 1k to 1M.
    this.sketch = options.admission ? new FrequencySketch(Math.min(2 ** 20, Math.max(1024, options.maxBytes / 4096))) : undefined;
  }

  /** The hot path's one read: a fresh entry, counted as a hit, or undefined (nothing counted; the caller goes on to `lookup` or `get`). */
  fresh(key: string): CacheOutcome<V> | undefined {
    const entry = this.main.get(key) ?? this.oneOff?.get(key);
    if (!entry) return undefined;
    const freshForMs = entry.freshUntil - this.now();
    if (freshForMs <= 0) return undefined;
    // Counted here only when found: a request it cannot answer is counted once, by the `lookup` or `get` that follows.
    this.sketch?.increment(key);
    this.hits++;
    return { value: entry.value, status: "HIT", freshForMs };
  }

  /**
   * A fresh or stale entry, counted; a stale one starts `refresh` unless a load of the
   * key is under way. Undefined (counted as a miss) when there is neither.
   */
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

  /** Read-through: `lookup`, else one load shared by every concurrent miss of the key. */
  async get(key: string, load: Load<V>): Promise<CacheOutcome<V>> {
    const cached = this.lookup(key, load);
    if (cached) return cached;
    const loaded = await this.inflight.share(key, () => this.loadUnshared(key, load));
    if (loaded.madeAt === undefined) return { value: loaded.value, status: "MISS", freshForMs: loaded.freshForMs ?? 0 };
    // Made elsewhere earlier: fresh for what is left of its time, else a stale answer (the second level's, given when the upstream failed).
    const freshForMs = Math.max(0, loaded.madeAt + (loaded.freshForMs ?? 0) - this.now());
    return { value: loaded.value, status: freshForMs > 0 ? "MISS" : "STALE", freshForMs };
  }

  /**
   * The freshest value there can be, for work done in the background (a page's
   * re-render): a fresh entry, else the outcome of a load, shared with one under way (a
   * stale entry's refresh) or started. When the load fails, a stale entry still in its
   * window answers instead.
   */
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

  /**
   * Stores what `load` gives, for values made outside `get` (a page is sent as soon as it
   * is rendered, and kept once compressed); skipped while a load of the key is under way.
   */
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

  /** True when a `get` of `key` now would start a load: no fresh or stale entry, and no load of it under way to share. */
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
    if (store.peek(key) === entry) this.index(key, tags);
  }

  /** True when `entry` may go into the main bound: there is room, or it is asked for more often than each entry it would push out (see the tie below). */
  private admits(key: string, entry: Entry<V>): boolean {
    if (!this.sketch || this.main.has(key)) return true;
    const size = this.options.sizeOf(entry.value, key);
    let room = this.options.maxBytes - this.main.calculatedSize;
    if (size <= room) return true;
    const wanted = this.sketch.estimate(key);
    for (const victim of this.main.rkeys()) {
      // A tie goes to the entry in place, as nothing says the newcomer is read more; among keys
      // seen about once (a crawler's walk) it goes to the newcomer, so that they take turns as in an LRU.
      const held = this.sketch.estimate(victim);
      if (held > wanted || (held === wanted && held > 1)) return false;
      room += this.main.info(victim)?.size ?? 0;
      if (size <= room) return true;
    }
    return false;
  }

  private index(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.tagIndex.get(tag);
      if (keys) keys.add(key);
      else this.tagIndex.set(tag, new Set([key]));
    }
  }

  private unindex(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.tagIndex.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.tagIndex.delete(tag);
    }
  }

  /**
   * Starts watching for purges of `key` (and its known tags) while some work that may
   * end in a store is under way, such as a render; `unwatch` when it ends. A load is
   * watched on its own; work that began before it is passed to it as `Loaded.since`.
   */
  watch(key: string): PurgeWatch {
    const watch: PurgeWatch = { key, tags: this.options.tagsOfKey?.(key) ?? NO_TAGS, purged: false, purgedTags: new Set() };
    this.watches.add(watch);
    return watch;
  }

  unwatch(watch: PurgeWatch): void {
    this.watches.delete(watch);
  }

  /** The tags of a stored entry (fresh or stale); undefined when none is stored. */
  tagsOf(key: string): readonly string[] | undefined {
    return (this.main.peek(key) ?? this.oneOff?.peek(key))?.tags;
  }

  /**
   * Marks the selected entries stale (soft) or drops them (hard), and keeps whatever is
   * being loaded or made for them from being stored; returns how many entries it found.
   */
  purge(selector: PurgeSelector, mode: PurgeMode): number {
    const keys = "tag" in selector ? [...(this.tagIndex.get(selector.tag) ?? [])] : [...this.main.keys(), ...(this.oneOff?.keys() ?? [])];
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
    for (const watch of this.watches) {
      if (watch.purged) continue;
      if ("all" in selector || ("keys" in selector ? selector.keys(watch.key) : watch.tags.includes(selector.tag))) {
        watch.purged = true;
        this.detach(watch.key);
      } else if ("tag" in selector) {
        if (watch.purgedTags.size >= MAX_WATCHED_TAGS) watch.purged = true;
        else watch.purgedTags.add(selector.tag);
      }
    }
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

  /** Loads and refreshes under way. */
  get loading(): number {
    return this.inflight.size + this.detached.size;
  }

  /** Resolves once no load is under way, counting loads that start while it waits. */
  async idle(): Promise<void> {
    while (this.loading > 0) await Promise.allSettled([...this.inflight.values(), ...this.detached]);
  }

  /** Forgets every entry (figures stay). */
  clear(): void {
    this.main.clear();
    this.oneOff?.clear();
  }
}
