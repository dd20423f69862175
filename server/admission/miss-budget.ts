// The miss budget: a token bucket per client, in a bounded LRU (docs/behaviour.md#miss-budget).
import type { LRUCache } from "lru-cache";
import { growingLru } from "../cache/growing-lru.ts";
import { HttpError } from "../http/errors.ts";
import { clientKeyOf } from "./client-key.ts";

interface MissBudgetOptions {
  /** 0: no limit. */
  ratePerMin: number;
  maxClients?: number;
  now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export type Admission = { ok: true } | { ok: false; retryAfterS: number };

export interface MissGate {
  take(address: string | undefined): Admission | Promise<Admission>;
}

const MINUTE = 60_000;
const BURST_SHARE = 10;

export function burstOf(ratePerMin: number): number {
  return Math.max(1, Math.ceil(ratePerMin / BURST_SHARE));
}

export class MissBudget implements MissGate {
  private readonly buckets: LRUCache<string, Bucket>;
  private readonly ratePerMin: number;
  private readonly capacity: number;
  private readonly now: () => number;
  private refusedCount = 0;

  constructor(options: MissBudgetOptions) {
    this.ratePerMin = options.ratePerMin;
    this.capacity = burstOf(options.ratePerMin);
    this.now = options.now ?? Date.now;
    this.buckets = growingLru(options.maxClients ?? 100_000);
  }

  take(address: string | undefined): Admission {
    if (this.ratePerMin === 0) return { ok: true };
    const client = clientKeyOf(address);
    const now = this.now();
    const bucket = this.buckets.get(client) ?? { tokens: this.capacity, at: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + ((now - bucket.at) * this.ratePerMin) / MINUTE);
    bucket.at = now;
    this.buckets.set(client, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    this.refusedCount++;
    return { ok: false, retryAfterS: Math.max(1, Math.ceil(((1 - bucket.tokens) * MINUTE) / this.ratePerMin / 1000)) };
  }

  countRefusal(): void {
    this.refusedCount++;
  }

  get refused(): number {
    return this.refusedCount;
  }
}

export function tooManyMisses(retryAfterS: number): HttpError {
  return new HttpError(429, "too many requests for uncached content; try again later", { "Retry-After": String(retryAfterS) });
}
