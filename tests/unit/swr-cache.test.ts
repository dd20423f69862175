/** SwrCache: misses, fresh and stale hits, refreshes, fills and shared loads. */
import { describe, expect, it } from "vitest";
import { type Loaded, SwrCache } from "../../server/cache/swr-cache.ts";
import { cacheOf, clock, loader, settle } from "../support/swr-cache-loads.ts";

describe("SwrCache", () => {
  it("misses once, then hits while fresh; concurrent misses share one load", async () => {
    clock.now = 0;
    const cache = cacheOf();
    const { load, runs } = loader((run) => `v${run}`);
    const first = await Promise.all([cache.get("k", load), cache.get("k", load), cache.get("k", load)]);
    expect(first.map((o) => [o.status, o.value])).toEqual(Array(3).fill(["MISS", "v1"]));
    clock.now = 999;
    expect(await cache.get("k", load)).toEqual({ value: "v1", status: "HIT", freshForMs: 1 });
    expect(runs()).toBe(1);
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: 3, hits: 1, misses: 3, stale: 0 });
  });

  it("serves a stale entry within the window while one refresh runs, then the refreshed one", async () => {
    clock.now = 0;
    const cache = cacheOf();
    const counted = loader((run) => `v${run}`);
    await cache.get("k", counted.load);
    clock.now = 1200;
    counted.hold();
    const stale = await Promise.all([cache.get("k", counted.load), cache.get("k", counted.load)]);
    expect(stale.map((o) => [o.status, o.value, o.freshForMs])).toEqual(Array(2).fill(["STALE", "v1", 0]));
    expect(counted.runs()).toBe(2);
    counted.release();
    await settle();
    expect(await cache.get("k", counted.load)).toMatchObject({ status: "HIT", value: "v2" });
    expect(cache.stats()).toMatchObject({ hits: 1, stale: 2, misses: 1 });
  });

  it("keeps the stale entry when its refresh fails, and drops it once the window has passed", async () => {
    clock.now = 0;
    const errors: string[] = [];
    const cache = new SwrCache<string>({
      maxBytes: 1000,
      staleMs: 500,
      sizeOf: (value) => value.length,
      now: () => clock.now,
      onRefreshError: (key, err) => errors.push(`${key}: ${(err as Error).message}`),
    });
    await cache.get("k", async () => ({ value: "v1", freshForMs: 1000 }));
    clock.now = 1100;
    const failing = () => Promise.reject(new Error("down"));
    expect(await cache.get("k", failing)).toMatchObject({ status: "STALE", value: "v1" });
    await settle();
    expect(errors).toEqual(["k: down"]);
    expect(await cache.get("k", failing)).toMatchObject({ status: "STALE", value: "v1" });
    clock.now = 1500;
    await expect(cache.get("k", failing)).rejects.toThrow("down");
    expect(cache.stats().entries).toBe(0);
  });

  it("never stores a failed load or one with no freshness; one fresh for 0 ms is served stale", async () => {
    clock.now = 0;
    const cache = cacheOf();
    await expect(cache.get("k", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.get("k", async () => ({ value: "once" }))).toEqual({ value: "once", status: "MISS", freshForMs: 0 });
    expect(cache.stats().entries).toBe(0);
    expect(await cache.get("k", async () => ({ value: "kept", freshForMs: 0 }))).toMatchObject({ status: "MISS", value: "kept" });
    expect(await cache.get("k", async () => ({ value: "next", freshForMs: 0 }))).toMatchObject({ status: "STALE", value: "kept" });
    expect(cache.stats().entries).toBe(1);
  });

  it("reads a fresh entry synchronously for the hot path, counting only what it returns", async () => {
    clock.now = 0;
    const cache = cacheOf();
    expect(cache.fresh("k")).toBeUndefined();
    await cache.get("k", async () => ({ value: "v", freshForMs: 100 }));
    expect(cache.fresh("k")).toEqual({ value: "v", status: "HIT", freshForMs: 100 });
    clock.now = 100;
    expect(cache.fresh("k")).toBeUndefined();
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, stale: 0 });
  });

  it("says whether a get would start a load: not when cached, stale or under way", async () => {
    clock.now = 0;
    const cache = cacheOf();
    const held = loader(() => "v");
    held.hold();
    expect(cache.startsLoad("k")).toBe(true);
    const pending = cache.get("k", held.load);
    expect(cache.startsLoad("k")).toBe(false);
    held.release();
    await pending;
    clock.now = 1200;
    expect(cache.startsLoad("k")).toBe(false);
    clock.now = 1500;
    expect(cache.startsLoad("k")).toBe(true);
  });

  it("fills an entry made outside get once, however many ask at the same time", async () => {
    clock.now = 0;
    const cache = cacheOf();
    const made = loader(() => "page");
    made.hold();
    const fills = [cache.fill("k", made.load), cache.fill("k", made.load)];
    made.release();
    await Promise.all(fills);
    expect(made.runs()).toBe(1);
    expect(cache.lookup("k", made.load)).toMatchObject({ status: "HIT", value: "page" });
  });

  it("is idle only once the load under way has landed and been stored", async () => {
    clock.now = 0;
    const cache = cacheOf();
    const first = loader((run) => `v${run}`);
    first.hold();
    const pending = cache.get("k", first.load);
    let idle = false;
    const waiting = cache.idle().then(() => (idle = true));
    await settle();
    expect([cache.loading, idle]).toEqual([1, false]);
    first.release();
    await pending;
    await waiting;
    expect([cache.loading, idle, cache.fresh("k")?.value]).toEqual([0, true, "v1"]);
  });

  it("current: a stale entry is refreshed and waited for, and answers itself when the refresh fails", async () => {
    clock.now = 0;
    const cache = cacheOf();
    await cache.get("k", async () => ({ value: "v1", freshForMs: 1000 }));
    expect(await cache.current("k", async () => ({ value: "v2", freshForMs: 1000 }))).toMatchObject({ status: "HIT", value: "v1" });
    clock.now = 1200;
    expect(await cache.current("k", async () => ({ value: "v2", freshForMs: 1000 }))).toMatchObject({ status: "MISS", value: "v2" });
    clock.now = 2400;
    const failing = async (): Promise<Loaded<string>> => {
      throw new Error("upstream down");
    };
    expect(await cache.current("k", failing)).toMatchObject({ status: "STALE", value: "v2" });
    clock.now = 10_000;
    await expect(cache.current("k", failing)).rejects.toThrow("upstream down");
  });
});
