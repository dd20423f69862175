/** SwrCache within its bytes: admission, eviction and the separate bound for one-off entries. */
import { describe, expect, it } from "vitest";
import type { Loaded } from "../../server/cache/swr-cache.ts";
import { fnvCollisions } from "../support/fnv-collisions.ts";
import { cacheOf, clock, loader } from "../support/swr-cache-loads.ts";

describe("SwrCache", () => {
  it("keeps a hot set that a walk over thousands of keys seen once never pushes out (admission)", async () => {
    clock.now = 0;
    // Room for 20 entries of 100 bytes.
    const cache = cacheOf({ maxBytes: 2000, admission: true });
    const page = (key: string) => async (): Promise<Loaded<string>> => ({ value: "x".repeat(100 - key.length), freshForMs: 1_000_000 });
    const hot = Array.from({ length: 15 }, (_, i) => `/hot/${String(i).padStart(2, "0")}`);
    for (let round = 0; round < 3; round++) for (const key of hot) await cache.get(key, page(key));

    // A crawler: 5,000 keys, each asked for once, between visitors reading the hot set.
    for (let i = 0; i < 5000; i++) {
      const key = `/crawl/${String(i).padStart(6, "0")}`;
      expect((await cache.get(key, page(key))).status).toBe("MISS");
      if (i % 50 === 0) for (const key of hot) await cache.get(key, page(key));
    }
    const before = cache.stats().hits;
    for (const key of hot) expect((await cache.get(key, page(key))).status).toBe("HIT");
    expect(cache.stats().hits - before).toBe(hot.length);
    // Keys seen once took turns in the room the hot set leaves; a key asked for again and again gets in.
    // (It must be read more often than the entry it pushes out, and the sketch, keyed at random, overcounts
    // under so many keys, 5,000 on 1,024 counters a row: some reads, not two; with 300 random keys, 3 to 13.)
    const again = "/crawl/again";
    const statuses: string[] = [];
    for (let i = 0; i < 16 && statuses.at(-1) !== "HIT"; i++) statuses.push((await cache.get(again, page(again))).status);
    expect(statuses.at(-1)).toBe("HIT");
  });

  it("keeps its warm keys under a flood of ids made to share their counters under an unkeyed hash (admission)", async () => {
    clock.now = 0;
    // Room for 40 entries of 100 bytes: 30 warm keys, each read 4 times.
    const cache = cacheOf({ maxBytes: 4000, admission: true });
    const page = (key: string) => async (): Promise<Loaded<string>> => ({ value: "x".repeat(100 - key.length), freshForMs: 1_000_000 });
    const warm = Array.from({ length: 30 }, (_, i) => `/api/portal/message/news/${100 + i}`);
    for (let round = 0; round < 4; round++) for (const key of warm) await cache.get(key, page(key));
    // 5 ids per warm key with the same 32-bit FNV-1a (code units past the id, as a forged URL could carry), each asked for 3 times.
    const forged = warm.flatMap((key) => fnvCollisions(key, "/api/portal/message/news/", 5));
    for (let round = 0; round < 3; round++) for (const key of forged) await cache.get(key, page(key));
    const kept = warm.filter((key) => cache.fresh(key));
    // Forged for an unkeyed hash, they are random keys to the keyed one: a count-min sketch
    // overcounts one now and then (a warm key lost in about one run in twelve), never most.
    expect(kept.length).toBeGreaterThanOrEqual(27);
  });

  it("keeps the entry in place on a tie: a newcomer gets in once asked for more often", async () => {
    clock.now = 0;
    // Room for one entry.
    const cache = cacheOf({ maxBytes: 100, admission: true });
    const page = async (): Promise<Loaded<string>> => ({ value: "x".repeat(90), freshForMs: 1_000_000 });
    for (let i = 0; i < 3; i++) await cache.get("/held", page);
    for (let i = 0; i < 3; i++) await cache.get("/new", page);
    // Asked for 3 times each: the entry in place stays (`startsLoad` looks without counting).
    expect(cache.startsLoad("/held")).toBe(false);
    expect(cache.startsLoad("/new")).toBe(true);
    expect(cache.stats().refused).toBe(3);
    await cache.get("/new", page);
    expect(cache.startsLoad("/new")).toBe(false);
    expect(cache.startsLoad("/held")).toBe(true);
  });

  it("evicts the least recently used entries to stay within its bytes", async () => {
    clock.now = 0;
    const cache = cacheOf({ maxBytes: 30 });
    for (const key of ["a", "b", "c", "d"]) await cache.get(key, async () => ({ value: "x".repeat(9), freshForMs: 100 }));
    expect(cache.stats()).toMatchObject({ entries: 3, bytes: 30, evictions: 1 });
    expect(cache.fresh("a")).toBeUndefined();
    expect(cache.fresh("d")?.value).toBe("x".repeat(9));
  });

  it("counts evictions only: an entry replaced or expired was not pushed out", async () => {
    clock.now = 0;
    const cache = cacheOf({ maxBytes: 1000, staleMs: 0 });
    await cache.get("k", async () => ({ value: "one", freshForMs: 10 }));
    clock.now = 20;
    await cache.get("k", async () => ({ value: "two", freshForMs: 10 }));
    expect(cache.stats()).toMatchObject({ entries: 1, misses: 2, evictions: 0 });
  });

  it("counts the misses that joined a load under way", async () => {
    clock.now = 0;
    const cache = cacheOf();
    const made = loader(() => "v");
    made.hold();
    const first = cache.get("k", made.load);
    const joined = [cache.get("k", made.load), cache.get("k", made.load)];
    made.release();
    await Promise.all([first, ...joined]);
    expect(made.runs()).toBe(1);
    expect(cache.stats()).toMatchObject({ misses: 3, shared: 2 });
  });

  it("keeps one-off entries in a bound of their own, so a flood of them never evicts the others", async () => {
    clock.now = 0;
    const cache = cacheOf({ maxBytes: 1000, oneOff: true });
    await cache.get("page", async () => ({ value: "x".repeat(500), freshForMs: 100 }));
    for (let i = 0; i < 50; i++) await cache.get(`unknown${i}`, async () => ({ value: "404 not found", freshForMs: 100 }));
    expect(cache.fresh("page")?.value).toBe("x".repeat(500));
    expect(cache.stats().bytes).toBeLessThanOrEqual(1000 + 100);
    expect(cache.fresh("unknown49")?.value).toBe("404 not found");
    expect(cache.fresh("unknown0")).toBeUndefined();
  });

  it("moves an entry between the bounds when it turns one-off or back", async () => {
    clock.now = 0;
    const cache = cacheOf({ maxBytes: 1000, oneOff: true });
    await cache.get("k", async () => ({ value: "404 gone", freshForMs: 100 }));
    clock.now = 700;
    const back = await cache.get("k", async () => ({ value: "found again", freshForMs: 100 }));
    expect(back.status).toBe("MISS");
    expect(cache.fresh("k")?.value).toBe("found again");
    expect(cache.stats().entries).toBe(1);
  });
});
