// The most frequent keys of a stream in fixed memory (docs/behaviour.md#missing-pages), in two stages so that keys
// seen once can never push out a key seen more often, however many of them come: a doorkeeper (doorkeeper.ts)
// remembers recent keys by fingerprint and admits one to the table only on its second sighting, and a full table's
// least counted key gives way only to a newcomer counted more often than it (TinyLFU's admission). A newcomer takes
// its own count, never the least one's (no inherited error), so every count listed is sightings really seen.
import { Doorkeeper } from "./doorkeeper.ts";

export interface HeavyHitter<M> {
  key: string;
  count: number;
  /** What the caller keeps beside the count (first and last seen, say), merged by `update`. */
  meta: M;
}

/** Keys the doorkeeper remembers for each counter of the table. */
const DOORKEEPER_PER_COUNTER = 4;

/** Keeps at most `capacity` keys: an indexed min-heap by count, so each addition is O(log capacity). */
export class HeavyHitters<M> {
  private readonly heap: HeavyHitter<M>[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly doorkeeper: Doorkeeper;
  readonly capacity: number;
  /** The meta of a key as it is counted again (`previous`) or for the first time (undefined). */
  private readonly update: (previous: M | undefined, added: M) => M;

  constructor(capacity: number, update: (previous: M | undefined, added: M) => M) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error("capacity must be a positive integer");
    this.capacity = capacity;
    this.update = update;
    this.doorkeeper = new Doorkeeper(capacity * DOORKEEPER_PER_COUNTER);
  }

  get size(): number {
    return this.heap.length;
  }

  /** Keys the doorkeeper holds (bounded by four times the capacity). */
  get waiting(): number {
    return this.doorkeeper.size;
  }

  add(key: string, meta: M, weight = 1): void {
    const slot = this.slotOf.get(key);
    if (slot !== undefined) {
      const entry = this.heap[slot] as HeavyHitter<M>;
      entry.count += weight;
      entry.meta = this.update(entry.meta, meta);
      this.siftDown(slot);
      return;
    }
    if (this.heap.length < this.capacity) {
      // Room: nothing is pushed out, so even a key seen once is counted, with what the doorkeeper held of it.
      const held = this.doorkeeper.size > 0 ? this.doorkeeper.take(key) : 0;
      this.heap.push({ key, count: weight + held, meta: this.update(undefined, meta) });
      this.slotOf.set(key, this.heap.length - 1);
      this.siftUp(this.heap.length - 1);
      return;
    }
    const seen = this.doorkeeper.note(key, weight);
    const least = this.heap[0] as HeavyHitter<M>;
    // A key seen once never gets in; one seen more often than the least counted takes its place.
    if (seen < 2 || seen <= least.count) return;
    this.doorkeeper.take(key);
    this.doorkeeper.note(least.key, least.count);
    this.slotOf.delete(least.key);
    this.heap[0] = { key, count: seen, meta: this.update(undefined, meta) };
    this.slotOf.set(key, 0);
    this.siftDown(0);
  }

  /** How often `key` was seen as far as this sketch knows (its count, or what the doorkeeper holds): 0 if unknown. */
  countOf(key: string): number {
    const slot = this.slotOf.get(key);
    return slot !== undefined ? (this.heap[slot] as HeavyHitter<M>).count : this.doorkeeper.countOf(key);
  }

  /** The `n` highest counts, highest first (ties by key, so an answer is stable). */
  top(n: number): HeavyHitter<M>[] {
    return [...this.heap]
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .slice(0, n)
      .map((entry) => ({ ...entry }));
  }

  /**
   * Every entry, emptying the table (a batch handed on elsewhere). The doorkeeper keeps what it holds: sightings
   * never handed on, which count when their key is admitted to a later batch.
   */
  drain(): HeavyHitter<M>[] {
    const entries = this.heap.splice(0);
    this.slotOf.clear();
    return entries;
  }

  private swap(i: number, j: number): void {
    const a = this.heap[i] as HeavyHitter<M>;
    const b = this.heap[j] as HeavyHitter<M>;
    this.heap[i] = b;
    this.heap[j] = a;
    this.slotOf.set(b.key, i);
    this.slotOf.set(a.key, j);
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((this.heap[parent] as HeavyHitter<M>).count <= (this.heap[i] as HeavyHitter<M>).count) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(i: number): void {
    const n = this.heap.length;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) return;
      const right = left + 1;
      const child = right < n && (this.heap[right] as HeavyHitter<M>).count < (this.heap[left] as HeavyHitter<M>).count ? right : left;
      if ((this.heap[i] as HeavyHitter<M>).count <= (this.heap[child] as HeavyHitter<M>).count) return;
      this.swap(i, child);
      i = child;
    }
  }
}
