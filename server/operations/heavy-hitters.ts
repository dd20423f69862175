// Space-Saving (Metwally, Agrawal, El Abbadi 2005): the most frequent keys of a stream in a fixed number of
// counters (docs/behaviour.md#missing-pages). A new key takes the least counter's place and count, plus its own,
// so a key counted more often than the least is never pushed out, however many keys are seen once.

export interface HeavyHitter<M> {
  key: string;
  count: number;
  /** What the caller keeps beside the count (first and last seen, say), merged by `update`. */
  meta: M;
}

/** Keeps at most `capacity` keys: an indexed min-heap by count, so each addition is O(log capacity). */
export class HeavyHitters<M> {
  private readonly heap: HeavyHitter<M>[] = [];
  private readonly slotOf = new Map<string, number>();
  readonly capacity: number;
  /** The meta of a key as it is counted again (`previous`) or for the first time (undefined). */
  private readonly update: (previous: M | undefined, added: M) => M;

  constructor(capacity: number, update: (previous: M | undefined, added: M) => M) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error("capacity must be a positive integer");
    this.capacity = capacity;
    this.update = update;
  }

  get size(): number {
    return this.heap.length;
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
      this.heap.push({ key, count: weight, meta: this.update(undefined, meta) });
      this.slotOf.set(key, this.heap.length - 1);
      this.siftUp(this.heap.length - 1);
      return;
    }
    // The least counter's key goes; the newcomer inherits its count (an over-estimate bounded by that count).
    const least = this.heap[0] as HeavyHitter<M>;
    this.slotOf.delete(least.key);
    this.heap[0] = { key, count: least.count + weight, meta: this.update(undefined, meta) };
    this.slotOf.set(key, 0);
    this.siftDown(0);
  }

  /** The `n` highest counts, highest first (ties by key, so an answer is stable). */
  top(n: number): HeavyHitter<M>[] {
    return [...this.heap]
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .slice(0, n)
      .map((entry) => ({ ...entry }));
  }

  /** Every entry, emptying the sketch (a batch handed on elsewhere). */
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
