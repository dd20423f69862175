/** SwrCache's tags: what a purge drops or marks stale, and loads that straddle a purge. */
import { describe, expect, it } from "vitest";
import { type Loaded, SwrCache } from "../../server/cache/swr-cache.ts";
import { cacheOf, clock } from "../support/swr-cache-loads.ts";

describe("SwrCache", () => {
  describe("tags and purges", () => {
    const tagged = (value: string, tags: string[]) => async (): Promise<Loaded<string>> => ({ value, freshForMs: 1000, tags });

    it("marks the entries of a tag stale (soft) or drops them (hard), and leaves the others", async () => {
      clock.now = 0;
      const cache = cacheOf();
      await cache.get("a", tagged("a1", ["news", "news:1"]));
      await cache.get("b", tagged("b1", ["news", "news:2"]));
      await cache.get("c", tagged("c1", ["site"]));
      expect(cache.purge({ tag: "news:1" }, "soft")).toBe(1);
      expect(cache.fresh("a")).toBeUndefined();
      expect(cache.lookup("a", tagged("a2", ["news", "news:1"]))).toMatchObject({ status: "STALE", value: "a1" });
      expect(cache.fresh("b")?.status).toBe("HIT");
      await cache.idle();
      expect(cache.fresh("a")?.value).toBe("a2");
      expect(cache.purge({ tag: "news" }, "hard")).toBe(2);
      expect(cache.startsLoad("a")).toBe(true);
      expect(cache.startsLoad("b")).toBe(true);
      expect(cache.fresh("c")?.value).toBe("c1");
      expect(cache.purge({ all: true }, "soft")).toBe(1);
      expect(cache.fresh("c")).toBeUndefined();
    });

    it("keeps the tag index to the stored entries: an evicted or replaced entry is no longer found by its old tags", async () => {
      clock.now = 0;
      const cache = cacheOf({ maxBytes: 20 });
      await cache.get("a", tagged("aaaaaaaa", ["one"]));
      await cache.get("b", tagged("bbbbbbbb", ["two"]));
      // Nine bytes each: "c" pushes "a" out.
      await cache.get("c", tagged("cccccccc", ["two"]));
      expect(cache.stats().entries).toBe(2);
      expect(cache.purge({ tag: "one" }, "hard")).toBe(0);
      expect(cache.tagsOf("b")).toEqual(["two"]);
      cache.purge({ tag: "two" }, "soft");
      await cache.get("b", tagged("b2", ["three"]));
      expect(cache.tagsOf("b")).toEqual(["three"]);
      expect(cache.purge({ tag: "two" }, "hard")).toBe(1);
      expect(cache.tagsOf("c")).toBeUndefined();
    });

    it("never stores a load under way when a purge names its tags, and later requests start their own", async () => {
      clock.now = 0;
      const cache = new SwrCache<string>({
        maxBytes: 10_000,
        staleMs: 500,
        sizeOf: (v, k) => v.length + k.length,
        now: () => clock.now,
        tagsOfKey: () => ["news:1"],
      });
      let release = () => {};
      const early = cache.get("a", () => new Promise((resolve) => (release = () => resolve({ value: "old", freshForMs: 1000 }))));
      cache.purge({ tag: "news:1" }, "soft");
      expect(cache.startsLoad("a")).toBe(true);
      expect((await cache.get("a", async () => ({ value: "new", freshForMs: 1000 }))).value).toBe("new");
      release();
      expect((await early).value).toBe("old");
      expect(cache.fresh("a")?.value).toBe("new");
    });

    it("never stores work begun before a purge of tags it ends with (a render), passed to the load as `since`", async () => {
      clock.now = 0;
      const cache = cacheOf();
      const render = cache.watch("page");
      cache.purge({ tag: "news:1" }, "soft");
      cache.unwatch(render);
      await cache.fill("page", async () => ({ value: "old page", freshForMs: 1000, tags: ["news:1"], since: render }));
      expect(cache.startsLoad("page")).toBe(true);
      const other = cache.watch("page");
      cache.purge({ tag: "news:2" }, "soft");
      cache.unwatch(other);
      await cache.fill("page", async () => ({ value: "new page", freshForMs: 1000, tags: ["news:1"], since: other }));
      expect(cache.fresh("page")?.value).toBe("new page");
    });
  });
});
