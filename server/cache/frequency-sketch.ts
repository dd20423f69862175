// TinyLFU's count-min sketch: how often each key was asked for lately, in fixed memory (docs/behaviour.md#admission).
import { randomBytes } from "node:crypto";

const ROWS = 4;
const MAX_COUNT = 15;
const SAMPLE_FACTOR = 10;
/** Odd, one per row. */
const ROW_MULTIPLIERS = [0x9e3779b1, 0x7feb352d, 0x846ca68b, 0xcc9e2d51];

/** HalfSipHash-1-3 of a string's UTF-16LE bytes: keyed per process, so nobody can aim keys at a popular key's counters. */
export function halfSipHash(text: string, k0: number, k1: number, out: Uint32Array): void {
  let v0 = k0;
  let v1 = k1 ^ 0xee;
  let v2 = 0x6c796765 ^ k0;
  let v3 = 0x74656462 ^ k1;
  const whole = text.length & ~1;
  // Two code units a word, one round each (the round is written out: this runs per request); the last word holds the length.
  for (let i = 0; i <= whole; i += 2) {
    const m =
      i < whole
        ? text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16)
        : ((text.length * 2) << 24) | (whole < text.length ? text.charCodeAt(whole) : 0);
    v3 ^= m;
    v0 = (v0 + v1) | 0;
    v1 = ((v1 << 5) | (v1 >>> 27)) ^ v0;
    v0 = (v0 << 16) | (v0 >>> 16);
    v2 = (v2 + v3) | 0;
    v3 = ((v3 << 8) | (v3 >>> 24)) ^ v2;
    v0 = (v0 + v3) | 0;
    v3 = ((v3 << 7) | (v3 >>> 25)) ^ v0;
    v2 = (v2 + v1) | 0;
    v1 = ((v1 << 13) | (v1 >>> 19)) ^ v2;
    v2 = (v2 << 16) | (v2 >>> 16);
    v0 ^= m;
  }
  v2 ^= 0xee;
  for (let r = 0; r < 6; r++) {
    if (r === 3) {
      out[0] = v1 ^ v3;
      v1 ^= 0xdd;
    }
    v0 = (v0 + v1) | 0;
    v1 = ((v1 << 5) | (v1 >>> 27)) ^ v0;
    v0 = (v0 << 16) | (v0 >>> 16);
    v2 = (v2 + v3) | 0;
    v3 = ((v3 << 8) | (v3 >>> 24)) ^ v2;
    v0 = (v0 + v3) | 0;
    v3 = ((v3 << 7) | (v3 >>> 25)) ^ v0;
    v2 = (v2 + v1) | 0;
    v1 = ((v1 << 13) | (v1 >>> 19)) ^ v2;
    v2 = (v2 << 16) | (v2 >>> 16);
  }
  out[1] = v1 ^ v3;
}

export class FrequencySketch {
  private readonly counters: Uint8Array;
  private readonly mask: number;
  private readonly sampleSize: number;
  private readonly k0: number;
  private readonly k1: number;
  private readonly hash = new Uint32Array(2);
  private additions = 0;

  /** `width` is rounded up to a power of two; `seed` is for tests. */
  constructor(width: number, seed: Uint8Array = randomBytes(8)) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(16, width)));
    this.counters = new Uint8Array(size * ROWS);
    this.mask = size - 1;
    this.sampleSize = size * SAMPLE_FACTOR;
    const view = new DataView(seed.buffer, seed.byteOffset, 8);
    this.k0 = view.getUint32(0, true);
    this.k1 = view.getUint32(4, true);
  }

  /** The last hash folded to a counter of `row` (its multiplier, then murmur3's finaliser), so rows place keys independently. */
  private slot(row: number): number {
    let x = (this.hash[0] as number) ^ Math.imul(this.hash[1] as number, ROW_MULTIPLIERS[row] as number);
    x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
    x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
    return row * (this.mask + 1) + ((x ^ (x >>> 16)) & this.mask);
  }

  slots(key: string): number[] {
    halfSipHash(key, this.k0, this.k1, this.hash);
    return Array.from({ length: ROWS }, (_, row) => this.slot(row));
  }

  increment(key: string): void {
    halfSipHash(key, this.k0, this.k1, this.hash);
    for (let row = 0; row < ROWS; row++) {
      const i = this.slot(row);
      if ((this.counters[i] as number) < MAX_COUNT) this.counters[i] = (this.counters[i] as number) + 1;
    }
    if (++this.additions >= this.sampleSize) this.age();
  }

  estimate(key: string): number {
    halfSipHash(key, this.k0, this.k1, this.hash);
    let least = MAX_COUNT;
    for (let row = 0; row < ROWS; row++) least = Math.min(least, this.counters[this.slot(row)] as number);
    return least;
  }

  private age(): void {
    for (let i = 0; i < this.counters.length; i++) this.counters[i] = (this.counters[i] as number) >> 1;
    this.additions = Math.floor(this.additions / 2);
  }
}
