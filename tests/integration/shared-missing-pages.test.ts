/**
 * The missing-pages log with REDIS_URL: two app instances on one real Redis count into one log, each answering
 * with both instances' counts; with Redis stopped each answers with its own and logs it once, and once Redis is
 * back what was counted meanwhile reaches the shared log.
 */
import { randomUUID } from "node:crypto";
import { pino } from "pino";
import { beforeEach, expect, it, vi } from "vitest";
import { MISSING_PAGES_CAPACITY } from "../../server/operations/missing-pages.ts";
import { localMissingPagesStore, type Sighting } from "../../server/operations/missing-pages-store.ts";
import { sharedMissingPagesStore } from "../../server/operations/shared-missing-pages.ts";
import { connectSharedTier, siteIdOf } from "../../server/redis/redis-connection.ts";
import { TEST_REDIS_DEADLINE_MS } from "../support/config.ts";
import { describeWithRedis, emptySite, type RedisServer, siteKeyPrefix, startRedisServer } from "../support/redis.ts";
import { type Instance, instancesForEachTest, startInstance, upstream } from "../support/shared-tier-instances.ts";

async function visit(instance: Instance, path: string, referer?: string): Promise<void> {
  const res = await fetch(instance.origin + path, { redirect: "manual", headers: referer ? { Referer: referer } : {} });
  expect(res.status, path).toBe(302);
}

const counts = async (instance: Instance) =>
  (await instance.app.portal.missingPages.top()).map(({ path, count, referrer }) => ({ path, count, referrer }));

instancesForEachTest({ "/api/portal/sys/syscfg": { themePortal: "1,1" } });

describeWithRedis("the missing-pages log shared through Redis", (url) => {
  beforeEach(() => emptySite(url, upstream.url));

  it("merges every instance's counts, first and last sightings, and the latest referrer", async () => {
    const [a, b] = [await startInstance(url), await startInstance(url)];
    for (let i = 0; i < 3; i++) await visit(a, `/old/page.html?i=${i}`, "https://first.example/x");
    await visit(b, "/old/page.html", "https://second.example/y");
    await visit(b, "/old/page.html");
    await visit(b, "/other.php");
    const expected = [
      { path: "/old/page.html", count: 5, referrer: "https://second.example" },
      { path: "/other.php", count: 1, referrer: null },
    ];
    // Each instance adds what it gathered at least once a second, and at once when its log is read.
    await counts(b);
    expect(await counts(a)).toEqual(expected);
    expect(await counts(b)).toEqual(expected);
    const [shared] = await a.app.portal.missingPages.top();
    expect(Date.parse(shared?.firstSeen ?? "")).toBeLessThanOrEqual(Date.parse(shared?.lastSeen ?? ""));
  });

  it("keeps a path asked for often through a flood of paths asked for once, in a bounded set", async () => {
    const a = await startInstance(url);
    for (let i = 0; i < 6; i++) await visit(a, "/often.html");
    // Far more distinct paths than one flush gathers, in several flushes.
    for (let round = 0; round < 3; round++) {
      await Promise.all(Array.from({ length: 400 }, (_, i) => visit(a, `/flood/${round}/${i}`)));
      await a.app.portal.missingPages.top();
    }
    const listed = await counts(a);
    expect(listed).toHaveLength(100);
    expect(listed[0]).toEqual({ path: "/often.html", count: 6, referrer: null });
    const redis = a.app.portal.sharedTier?.redis;
    const keys = (await redis?.keys(`${siteKeyPrefix(upstream.url)}missing:*`)) ?? [];
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const key of keys) {
      const size = key.endsWith(":counts") ? await redis?.zcard(key) : await redis?.hlen(key);
      expect(size, key).toBeLessThanOrEqual(1024);
    }
  });
});

describeWithRedis("the shared missing-pages log under a flood of one-off paths", (url) => {
  beforeEach(() => emptySite(url, upstream.url));

  it("keeps paths asked for 50 and 6 times through 200,000 one-offs from two instances, and no one-off above 1", async () => {
    const at = (t: number): Sighting => ({ firstSeen: t, lastSeen: t, referrer: null });
    // Two instances' stores on one Redis, each flushed (as once a second) after every thousand sightings.
    // A site of this run's own: another run of the tests may use the same Redis at the same time.
    const site = `http://flood.example/${randomUUID()}`;
    const tiers = [0, 1].map(() => connectSharedTier(url, siteIdOf(site), pino({ level: "silent" }), TEST_REDIS_DEADLINE_MS));
    const stores = tiers.map((tier) =>
      sharedMissingPagesStore(tier, localMissingPagesStore(MISSING_PAGES_CAPACITY), {
        capacity: MISSING_PAGES_CAPACITY,
        flushEveryMs: 3_600_000,
      }),
    );
    const [a, b] = stores as [(typeof stores)[0], (typeof stores)[0]];
    /** A busy machine may make Redis miss the tier's deadline: each instance then counts alone until it answers again. */
    const sharedList = async () => {
      for (;;) {
        while (tiers.some((tier) => tier.state() !== "connected")) await new Promise((resolve) => setTimeout(resolve, 50));
        // What waited is added by the next read's flush.
        await a.top(1);
        const list = await b.top(100);
        if (list.shared && tiers.every((tier) => tier.state() === "connected")) return list.entries;
      }
    };
    try {
      await Promise.all(tiers.map((tier) => tier.connected()));
      for (let i = 0; i < 50; i++) a.note("/often-asked.html", at(i));
      for (let i = 0; i < 6; i++) b.note("/six-times.html", at(i));
      for (let round = 0; round < 100; round++) {
        // Asked for once a second by one instance, once the log is full: it gets in on the instance's own count.
        if (round >= 80) a.note("/steady.html", at(round));
        for (const [n, store] of [a, b].entries())
          for (let i = 0; i < 1000; i++) store.note(`/missing-${n}-${round}-${i}`, at(1000 + round));
        await Promise.all([a.top(1), b.top(1)]);
      }
      const entries = await sharedList();
      expect(entries.slice(0, 3).map((e) => [e.key, e.count])).toEqual([
        ["/often-asked.html", 50],
        ["/steady.html", 20],
        ["/six-times.html", 6],
      ]);
      expect(entries.slice(3).every((e) => e.count === 1)).toBe(true);
      const redis = tiers[0]?.redis;
      const keys = (await redis?.keys(`${siteKeyPrefix(site)}missing:*`)) ?? [];
      expect(keys).toHaveLength(3);
      for (const key of keys) {
        const size = key.endsWith(":counts") ? await redis?.zcard(key) : await redis?.hlen(key);
        expect(size, key).toBeLessThanOrEqual(MISSING_PAGES_CAPACITY);
      }
    } finally {
      for (const store of stores) await store.close();
      for (const tier of tiers) tier.close();
    }
  });
});

describeWithRedis("the missing-pages log read back from Redis", (url) => {
  beforeEach(() => emptySite(url, upstream.url));

  it("starts again a log someone else overwrote, and leaves out entries it would never write", async () => {
    const a = await startInstance(url);
    const tier = a.app.portal.sharedTier;
    if (!tier) throw new Error("no Redis");
    await tier.redis.set(tier.key("missing", "counts"), "not a sorted set");
    await visit(a, "/after.html");
    expect(await counts(a)).toEqual([{ path: "/after.html", count: 1, referrer: null }]);

    const now = String(Date.now());
    await tier.redis.zadd(tier.key("missing", "counts"), 50, "javascript:alert(1)", 40, "/forged-referrer.html");
    await tier.redis.hset(tier.key("missing", "first"), "javascript:alert(1)", now, "/forged-referrer.html", now);
    await tier.redis.hset(tier.key("missing", "last"), "javascript:alert(1)", now, "/forged-referrer.html", now);
    await tier.redis.hset(tier.key("missing", "referrer"), "/forged-referrer.html", "https://x.example/path?q=1");
    expect(await counts(a)).toEqual([{ path: "/after.html", count: 1, referrer: null }]);
    // The instance's Redis stayed in use throughout.
    expect(tier.state()).toBe("connected");
    expect(a.logs.filter((line) => line.level === "warn" && /^Redis unavailable/.test(line.msg))).toEqual([]);
  });
});

describeWithRedis("the missing-pages log when Redis stops", () => {
  let redis: RedisServer;
  beforeEach(async () => {
    redis = await startRedisServer();
    return () => redis.stop();
  });

  it("answers with this instance's counts, logs it once, and shares what it counted once Redis is back", async () => {
    const [a, b] = [await startInstance(redis.url), await startInstance(redis.url)];
    await visit(a, "/before.html");
    await visit(b, "/before.html");
    await counts(b);
    expect(await counts(a)).toEqual([{ path: "/before.html", count: 2, referrer: null }]);

    await redis.stop();
    await visit(a, "/during.html");
    await visit(a, "/during.html");
    // Its own counts: what it saw, before and during.
    expect(await counts(a)).toEqual([
      { path: "/during.html", count: 2, referrer: null },
      { path: "/before.html", count: 1, referrer: null },
    ]);
    expect(await counts(a)).toHaveLength(2);
    expect(a.logs.filter((line) => line.level === "warn" && /^Redis unavailable/.test(line.msg))).toHaveLength(1);

    // Started again empty: the counts gathered while it was away are added once it answers.
    await redis.start();
    while (a.app.portal.sharedTier?.state() !== "connected") await new Promise((resolve) => setTimeout(resolve, 50));
    await visit(b, "/during.html");
    // a adds what it gathered as soon as it is connected again, in the background: wait for the sum.
    await vi.waitFor(
      async () => {
        await counts(b);
        expect(await counts(a)).toEqual([{ path: "/during.html", count: 3, referrer: null }]);
      },
      { timeout: 10_000, interval: 50 },
    );
  });
});
