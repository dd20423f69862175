/**
 * How often each key was asked for lately, approximately and in fixed memory: a count-min
 * sketch of 4 rows of small counters (TinyLFU's, as Caffeine and Ristretto keep). A key's
 * estimate is the least of its 4 counters, so collisions only ever overcount. Every
 * `width` × 10 increments all counters are halved, so what was popular an hour ago does not
 * outweigh what is popular now.
 */

const ROWS = 4;
const MAX_COUNT = 15;
const SAMPLE_FACTOR = 10;

/** 32-bit FNV-1a of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export class FrequencySketch {
  private readonly counters: Uint8Array;
  private readonly mask: number;
  private readonly sampleSize: number;
  private additions = 0;

  /** `width` counters per row, rounded up to a power of two. */
  constructor(width: number) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(16, width)));
    this.counters = new Uint8Array(size * ROWS);
    this.mask = size - 1;
    this.sampleSize = size * SAMPLE_FACTOR;
  }

  private slot(hash: number, row: number): number {
    // A second hash from the first (double hashing), one index per row.
    const mixed = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b + row * 0x9e3779b1) >>> 0;
    return row * (this.mask + 1) + ((mixed ^ (mixed >>> 15)) & this.mask);
  }

  increment(key: string): void {
    const hash = fnv1a(key);
    for (let row = 0; row < ROWS; row++) {
      const i = this.slot(hash, row);
      if ((this.counters[i] as number) < MAX_COUNT) this.counters[i] = (this.counters[i] as number) + 1;
    }
    if (++this.additions >= this.sampleSize) this.age();
  }

  estimate(key: string): number {
    const hash = fnv1a(key);
    let least = MAX_COUNT;
    for (let row = 0; row < ROWS; row++) least = Math.min(least, this.counters[this.slot(hash, row)] as number);
    return least;
  }

  private age(): void {
    for (let i = 0; i < this.counters.length; i++) this.counters[i] = (this.counters[i] as number) >> 1;
    this.additions = Math.floor(this.additions / 2);
  }
}
