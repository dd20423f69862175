/**
 * Rendered pages, kept as bytes ready to send: the HTML with its gzip and brotli forms
 * (compressed once per entry, never per request), its ETag, and the exact headers the
 * app sent with it. Byte-bounded like the API cache. An entry is fresh only as long as
 * the freshest-expiring answer it was rendered from, then served stale while one
 * re-render runs, up to the stale window.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { LRUCache } from "lru-cache";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

export interface CachedPage {
  status: number;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  /** Weak: the same entity in any content coding. */
  etag: string;
  /** Everything the app sent but the per-response headers (length, coding, validators, freshness, request id). */
  headers: [string, string][];
  freshUntil: number;
  staleUntil: number;
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

const sizeOf = (page: CachedPage, key: string) => page.identity.length + page.gzip.length + page.br.length + key.length * 2 + 1024;

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

  countHit(): void {
    this.hits++;
  }

  /**
   * Compresses once and stores; the entry is fresh for `freshForMs` from now. Concurrent
   * misses of one page share one rendering, and must not each compress it again.
   */
  async store(key: string, page: { status: number; html: string; headers: [string, string][]; freshForMs: number }): Promise<void> {
    if (this.storing.has(key)) return;
    this.storing.add(key);
    try {
      await this.compressAndStore(key, page);
    } finally {
      this.storing.delete(key);
    }
  }

  private async compressAndStore(
    key: string,
    page: { status: number; html: string; headers: [string, string][]; freshForMs: number },
  ): Promise<void> {
    const identity = Buffer.from(page.html);
    const [gz, br] = await Promise.all([
      gzip(identity, { level: 9 }),
      brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    ]);
    const storedAt = this.now();
    this.lru.set(key, {
      status: page.status,
      identity,
      gzip: gz,
      br,
      etag: `W/"${createHash("sha1").update(identity).digest("base64url")}"`,
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
