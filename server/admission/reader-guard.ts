// Reader PUT rules, this instance's own, in bounded LRUs (docs/behaviour.md#reader-updates).
import type { LRUCache } from "lru-cache";
import { growingLru } from "../cache/growing-lru.ts";
import { InFlight } from "../cache/in-flight.ts";
import type { Admission } from "./miss-budget.ts";

interface ReaderGuardOptions {
  ratePerMin: number;
  dedupWindowMs: number;
  maxClients?: number;
  now?: () => number;
}

interface Window {
  startedAt: number;
  count: number;
}

const MINUTE = 60_000;

export const DUPLICATE = Symbol("duplicate");
export type Duplicate = typeof DUPLICATE;

export interface ReaderLimits {
  admit(client: string): Admission | Promise<Admission>;
  /** A concurrent duplicate shares the first one's outcome; only a success is remembered, so a retry counts. */
  forwardOnce<T>(key: string, forward: () => Promise<T | Duplicate>, succeeded: (result: T) => boolean): Promise<T | Duplicate>;
}

interface ReaderCounts {
  forwarded: number;
  duplicate: number;
  /** Joined the same count's request under way. */
  shared: number;
  limited: number;
}

export class ReaderGuard implements ReaderLimits {
  private readonly windows: LRUCache<string, Window>;
  private readonly seen: LRUCache<string, true> | undefined;
  private readonly pending = new InFlight<unknown>();
  private readonly now: () => number;

  private readonly options: ReaderGuardOptions;
  private readonly counts: Omit<ReaderCounts, "shared"> = { forwarded: 0, duplicate: 0, limited: 0 };

  constructor(options: ReaderGuardOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    const max = options.maxClients ?? 100_000;
    this.windows = growingLru(max);
    this.seen =
      options.dedupWindowMs > 0
        ? growingLru(max * 4, { ttl: options.dedupWindowMs, ttlAutopurge: false, perf: { now: () => this.now() } })
        : undefined;
  }

  admit(client: string): Admission {
    const now = this.now();
    let window = this.windows.get(client);
    if (!window || now - window.startedAt >= MINUTE) {
      window = { startedAt: now, count: 0 };
      this.windows.set(client, window);
    }
    window.count++;
    if (window.count <= this.options.ratePerMin) return { ok: true };
    this.counts.limited++;
    return { ok: false, retryAfterS: Math.max(1, Math.ceil((window.startedAt + MINUTE - now) / 1000)) };
  }

  async forwardOnce<T>(key: string, forward: () => Promise<T | Duplicate>, succeeded: (result: T) => boolean): Promise<T | Duplicate> {
    if (this.seen?.has(key)) {
      this.counts.duplicate++;
      return DUPLICATE;
    }
    return this.pending.share(key, () =>
      forward().then((result) => {
        // Counted, here or (shared) by another instance: repeats inside the window are duplicates.
        if (result === DUPLICATE) this.counts.duplicate++;
        else this.counts.forwarded++;
        if (result === DUPLICATE || succeeded(result)) this.seen?.set(key, true);
        return result;
      }),
    ) as Promise<T | Duplicate>;
  }

  countLimited(): void {
    this.counts.limited++;
  }

  stats(): ReaderCounts {
    return { ...this.counts, shared: this.pending.joined };
  }
}
