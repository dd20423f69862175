/**
 * Rendered pages, kept as answers ready to send: the HTML with its gzip and brotli forms
 * (compressed once per entry, never per request), its ETag, and the exact headers the
 * app sent with it. Byte-bounded like the API cache. An entry is fresh only as long as
 * the freshest-expiring answer it was rendered from, then served stale while one
 * re-render runs, up to the stale window.
 *
 * Not-found pages are kept apart, in a bound of their own (a sixteenth of the bytes) and
 * compressed at the cheapest level: anyone can ask for endless unknown ids, and those
 * must neither push real pages out nor cost a level-9 compression each.
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

/** Not-found pages get this fraction (1/n) of the byte bound, on top of it. */
const NOT_FOUND_SHARE = 16;

export class PageCache {
  readonly staleMs: number;
  readonly now: () => number;
  private readonly lru: LRUCache<string, CachedPage>;
  private readonly notFound: LRUCache<string, CachedPage>;
  private readonly refreshing = new Set<string>();
  private readonly storing = new Set<string>();
  private hits = 0;
  private stale = 0;
  private misses = 0;

  constructor(options: PageCacheOptions) {
    this.staleMs = options.staleMs;
    this.now = options.now ?? Date.now;
    this.lru = new LRUCache({ maxSize: options.maxBytes, sizeCalculation: sizeOf });
    this.notFound = new LRUCache({ maxSize: Math.max(1, Math.floor(options.maxBytes / NOT_FOUND_SHARE)), sizeCalculation: sizeOf });
  }

  /** The entry for a key, fresh or stale. `count: false` looks without counting (the fast path counts only what it serves). */
  get(key: string, count = true): PageLookup | undefined {
    const store = this.lru.has(key) ? this.lru : this.notFound;
    const page = store.get(key);
    const now = this.now();
    if (page && now < page.freshUntil) {
      if (count) this.hits++;
      return { page, stale: false };
    }
    if (page && now < page.staleUntil) {
      if (count) this.stale++;
      return { page, stale: true };
    }
    if (page) store.delete(key);
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
    const notFound = page.status === 404;
    const answer = await prepareAnswer(page.status, page.body, page.etag, page.headers, notFound ? "fast" : "max");
    const storedAt = this.now();
    // A page that turned into a not-found one (or back) leaves the other store.
    (notFound ? this.lru : this.notFound).delete(key);
    (notFound ? this.notFound : this.lru).set(key, {
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
      entries: this.lru.size + this.notFound.size,
      bytes: this.lru.calculatedSize + this.notFound.calculatedSize,
      hits: this.hits,
      stale: this.stale,
      misses: this.misses,
      hitRatio: served === 0 ? 0 : Math.round(((this.hits + this.stale) / served) * 1000) / 1000,
    };
  }
}
