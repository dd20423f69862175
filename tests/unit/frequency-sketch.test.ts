import { describe, expect, it } from "vitest";
import { FrequencySketch } from "../../server/cache/frequency-sketch.ts";
import { fnv1a, fnvCollisions } from "../support/fnv-collisions.ts";

const seed = (n: number) => Buffer.from([n, 1, 2, 3, 4, 5, 6, 7]);

describe("FrequencySketch", () => {
  it("counts a key apart from the keys an unkeyed FNV-1a confused it with", () => {
    const warm = "/api/portal/message/news/12";
    const forged = fnvCollisions(warm, "/api/portal/message/news/", 20);
    expect(forged.every((key) => fnv1a(key) === fnv1a(warm))).toBe(true);
    // A fresh random key each time, as each process has.
    const sketch = new FrequencySketch(1024);
    for (let i = 0; i < 10; i++) sketch.increment(warm);
    expect(sketch.estimate(warm)).toBe(10);
    expect(forged.map((key) => sketch.estimate(key))).toEqual(forged.map(() => 0));
  });

  it("places keys by its seed: two seeds put the same key on different counters", () => {
    const key = "/api/portal/message/news/12";
    const places = [1, 2, 3, 4].map((n) => new FrequencySketch(1024, seed(n)).slots(key).join());
    expect(new Set(places).size).toBe(4);
    expect(new FrequencySketch(1024, seed(1)).slots(key)).toEqual(new FrequencySketch(1024, seed(1)).slots(key));
  });

  it("keeps its rows apart: keys sharing a counter in one row do not share the others", () => {
    const sketch = new FrequencySketch(1024, seed(9));
    const first = sketch.slots("key-0");
    // Keys on key-0's counter of row 0 (about one in 1,024).
    const sharing = Array.from({ length: 200_000 }, (_, i) => `key-${i + 1}`).filter((key) => sketch.slots(key)[0] === first[0]);
    expect(sharing.length).toBeGreaterThan(50);
    for (const row of [1, 2, 3]) {
      const together = sharing.filter((key) => sketch.slots(key)[row] === first[row]);
      expect(together.length).toBeLessThanOrEqual(2);
    }
  });
});
