/**
 * Rendered pages, kept as answers ready to send: the HTML with its gzip and brotli forms
 * (compressed once per entry, never per request), its ETag, and the exact headers the
 * app sent with it. Byte-bounded like the API cache. An entry is fresh only as long as
 * the freshest-expiring answer it was rendered from, then served stale while one
 * re-render runs, up to the stale window.
 */
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { type PreparedAnswer, prepareAnswer } from "../http/prepared-answer.ts";

export interface CachedPage {
  answer: PreparedAnswer;
  /** Everything the app sent but the per-response headers (length, coding, validators, freshness, request id). */
  headers: [string, string][];
  freshUntil: number;
  staleUntil: number;
}

export interface PageToStore {
  status: number;
  body: Buffer;
  etag: string;
  headers: [string, string][];
  freshForMs: number;
}

/** Weak: the same entity in any content coding. */
export function weakEtagOf(body: Buffer): string {
  return `W/"${createHash("sha1").update(body).digest("base64url")}"`;
}

export interface PageCacheOptions {
  maxBytes: number;
  staleMs: number;
  now?: () => number;
}

export interface PageLookup {
  page: CachedPage;
  stale: boolean;
}

const sizeOf = (page: CachedPage, key: string) => page.answer.bytes + key.length * 2 + 1024;

export class PageCache {
  readonly staleMs: number;
  readonly now: () => number;
  private readonly lru: LRUCache<string, CachedPage>;
  private readonly refreshing = new Set<string>();
  private readonly storing = new Set<string>();
  private hits = 0;
  private stale = 0;
  private misses = 0;

  constructor(options: PageCacheOptions) {
    this.staleMs = options.staleMs;
    this.now = options.now ?? Date.now;
    this.lru = new LRUCache({ maxSize: options.maxBytes, sizeCalculation: sizeOf });
  }

  /** The entry for a key, fresh or stale. `count: false` looks without counting (the fast path counts only what it serves). */
  get(key: string, count = true): PageLookup | undefined {
    const page = this.lru.get(key);
    const now = this.now();
    if (page && now < page.freshUntil) {
      if (count) this.hits++;
      return { page, stale: false };
    }
    if (page && now < page.staleUntil) {
      if (count) this.stale++;
      return { page, stale: true };
    }
    if (page) this.lru.delete(key);
    if (count) this.misses++;
    return undefined;
  }

  /** Counts an answer served without `get` counting it (the hot path looks first, then serves). */
  count(stale: boolean): void {
    if (stale) this.stale++;
    else this.hits++;
  }

  /**
   * Compresses once and stores; the entry is fresh for `freshForMs` from now. Concurrent
   * misses of one page share one rendering, and must not each compress it again.
   */
  async store(key: string, page: PageToStore): Promise<void> {
    if (this.storing.has(key)) return;
    this.storing.add(key);
    try {
      await this.compressAndStore(key, page);
    } finally {
      this.storing.delete(key);
    }
  }

  private async compressAndStore(key: string, page: PageToStore): Promise<void> {
    const answer = await prepareAnswer(page.status, page.body, page.etag, page.headers);
    const storedAt = this.now();
    this.lru.set(key, {
      answer,
      headers: page.headers,
      freshUntil: storedAt + page.freshForMs,
      staleUntil: storedAt + page.freshForMs + this.staleMs,
    });
  }

  /** Runs one re-render per key at a time; a failed one leaves the stale entry in place. */
  refresh(key: string, run: () => Promise<void>, onError: (err: unknown) => void): void {
    if (this.refreshing.has(key)) return;
    this.refreshing.add(key);
    run()
      .catch(onError)
      .finally(() => this.refreshing.delete(key));
  }

  stats() {
    const served = this.hits + this.stale + this.misses;
    return {
      entries: this.lru.size,
      bytes: this.lru.calculatedSize,
      hits: this.hits,
      stale: this.stale,
      misses: this.misses,
      hitRatio: served === 0 ? 0 : Math.round(((this.hits + this.stale) / served) * 1000) / 1000,
    };
  }
}
