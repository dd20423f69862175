// The heavy-hitters table's doorkeeper (heavy-hitters.ts): the keys seen lately and how often, by a keyed 48-bit
// fingerprint (not the key, so a long key costs no more than a short one), in at most `capacity` entries. A key seen
// again moves to the back; the one unseen longest goes first, so a flood of keys seen once churns only itself.
import { randomBytes } from "node:crypto";
import { halfSipHash } from "../cache/frequency-sketch.ts";

export class Doorkeeper {
  /** Fingerprint to count, in the order last seen (a Map iterates in insertion order). */
  private readonly counts = new Map<number, number>();
  private readonly k0: number;
  private readonly k1: number;
  private readonly hash = new Uint32Array(2);
  readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
    const seed = randomBytes(8);
    this.k0 = seed.readUInt32LE(0);
    this.k1 = seed.readUInt32LE(4);
  }

  get size(): number {
    return this.counts.size;
  }

  /** HalfSipHash keyed per process (as the page cache's sketch): nobody can aim a key at another's. Two keys share one at odds of 2^-48. */
  private fingerprint(key: string): number {
    halfSipHash(key, this.k0, this.k1, this.hash);
    return (this.hash[0] as number) * 0x10000 + ((this.hash[1] as number) >>> 16);
  }

  /** Counts `weight` more sightings of `key` and answers all it holds of it. */
  note(key: string, weight: number): number {
    const print = this.fingerprint(key);
    const seen = (this.counts.get(print) ?? 0) + weight;
    this.counts.delete(print);
    this.counts.set(print, seen);
    if (this.counts.size > this.capacity) this.counts.delete(this.counts.keys().next().value as number);
    return seen;
  }

  countOf(key: string): number {
    return this.counts.get(this.fingerprint(key)) ?? 0;
  }

  /** What it holds of `key` (0 if nothing), forgetting it. */
  take(key: string): number {
    const print = this.fingerprint(key);
    const seen = this.counts.get(print) ?? 0;
    this.counts.delete(print);
    return seen;
  }
}
