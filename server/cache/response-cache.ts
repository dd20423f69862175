/**
 * A byte-bounded LRU of upstream answers with request de-duplication and
 * stale-while-revalidate / stale-if-error (CONTRACT section 4):
 * - fresh entry: HIT;
 * - past its TTL but within the stale window: served as STALE while one background
 *   refresh runs (a failed refresh leaves the stale entry in place, so upstream failures
 *   are answered from it until the window closes);
 * - otherwise: MISS, and concurrent misses for one key share one load.
 * Loads that throw or say `cacheable: false` are never stored.
 */
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";

export interface CachedAnswer {
  status: number;
  body: Buffer;
  etag: string;
  /** The parsed body, kept so in-process readers need not parse it again. */
  json: unknown;
}

interface Entry extends CachedAnswer {
  freshUntil: number;
  staleUntil: number;
}

export type CacheStatus = "HIT" | "MISS" | "STALE";

export interface CacheOutcome {
  answer: CachedAnswer;
  status: CacheStatus;
  /** Milliseconds the answer stays fresh (0 when stale or not stored). */
  freshForMs: number;
}

export interface LoadResult {
  answer: CachedAnswer;
  cacheable: boolean;
}

export interface CacheStats {
  entries: number;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
  stale: number;
  hitRatio: number;
}

export interface ResponseCacheOptions {
  maxBytes: number;
  staleMs: number;
  now?: () => number;
  onRefreshError?: (key: string, err: unknown) => void;
}

/**
 * Entries also hold the parsed body and, once served before Express, their gzip and
 * brotli forms; counting the bytes four times over bounds them all.
 */
const sizeOf = (entry: Entry, key: string) => entry.body.length * 4 + key.length * 2 + 512;

export function etagOf(body: Buffer): string {
  return `"${createHash("sha1").update(body).digest("base64url")}"`;
}

export class ResponseCache {
  private readonly lru: LRUCache<string, Entry>;
  private readonly inflight = new Map<string, Promise<LoadResult>>();
  private readonly now: () => number;
  private hits = 0;
  private misses = 0;
  private stale = 0;

  private readonly options: ResponseCacheOptions;

  constructor(options: ResponseCacheOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.lru = new LRUCache<string, Entry>({ maxSize: options.maxBytes, sizeCalculation: sizeOf });
  }

  async getOrFetch(key: string, ttlMs: number, load: () => Promise<LoadResult>): Promise<CacheOutcome> {
    const now = this.now();
    const entry = this.lru.get(key);
    if (entry && now < entry.freshUntil) {
      this.hits++;
      return { answer: entry, status: "HIT", freshForMs: entry.freshUntil - now };
    }
    if (entry && now < entry.staleUntil) {
      this.stale++;
      if (!this.inflight.has(key)) {
        this.load(key, ttlMs, load).catch((err) => this.options.onRefreshError?.(key, err));
      }
      return { answer: entry, status: "STALE", freshForMs: 0 };
    }
    if (entry) this.lru.delete(key);
    this.misses++;
    const result = await (this.inflight.get(key) ?? this.load(key, ttlMs, load));
    return { answer: result.answer, status: "MISS", freshForMs: result.cacheable ? ttlMs : 0 };
  }

  /** A fresh entry, looked at without counting it or touching the upstream (the hot path counts what it serves). */
  peekFresh(key: string): { answer: CachedAnswer; freshForMs: number } | undefined {
    const entry = this.lru.get(key);
    const freshForMs = entry ? entry.freshUntil - this.now() : 0;
    return entry && freshForMs > 0 ? { answer: entry, freshForMs } : undefined;
  }

  /** True when a GET of `key` now would start an upstream request: no fresh or stale entry, and no load of it under way to share. */
  startsLoad(key: string): boolean {
    if (this.inflight.has(key)) return false;
    const entry = this.lru.peek(key);
    return entry === undefined || this.now() >= entry.staleUntil;
  }

  countHit(): void {
    this.hits++;
  }

  private load(key: string, ttlMs: number, load: () => Promise<LoadResult>): Promise<LoadResult> {
    const pending = load()
      .then((result) => {
        if (result.cacheable) {
          const storedAt = this.now();
          this.lru.set(key, { ...result.answer, freshUntil: storedAt + ttlMs, staleUntil: storedAt + ttlMs + this.options.staleMs });
        }
        return result;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, pending);
    return pending;
  }

  stats(): CacheStats {
    const served = this.hits + this.misses + this.stale;
    return {
      entries: this.lru.size,
      bytes: this.lru.calculatedSize,
      maxBytes: this.options.maxBytes,
      hits: this.hits,
      misses: this.misses,
      stale: this.stale,
      hitRatio: served === 0 ? 0 : Math.round(((this.hits + this.stale) / served) * 1000) / 1000,
    };
  }

  clear(): void {
    this.lru.clear();
  }
}
