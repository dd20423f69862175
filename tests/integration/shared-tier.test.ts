/**
 * REDIS_URL: several app instances on one real Redis and one stand-in upstream, each
 * instance a real HTTP server on 127.0.0.1. A cold key costs the upstream one request
 * whatever the instances asking; an answer one instance loaded is served by the others;
 * reader PUTs, the reader rate and the miss budget are counted once across instances;
 * purges and messages reach every instance.
 */
import { pino } from "pino";
import { beforeEach, expect, it } from "vitest";
import type { PurgeRequest } from "../../server/purge/purge-request.ts";
import { createPubSub } from "../../server/redis/pub-sub.ts";
import { connectSharedTier, siteIdOf } from "../../server/redis/redis-connection.ts";
import { TEST_REDIS_DEADLINE_MS } from "../support/config.ts";
import { newPurgeSecret, signedPurge } from "../support/purge-request.ts";
import { describeWithRedis, emptySite } from "../support/redis.ts";
import {
  coldKeyRequests,
  type Instance,
  instancesForEachTest,
  SYSCFG,
  send,
  startInstance,
  startInstances,
  upstream,
} from "../support/shared-tier-instances.ts";
import { startStandInUpstream } from "../support/stand-in-upstream.ts";

instancesForEachTest();

describeWithRedis("instances sharing one Redis", (redisUrl) => {
  beforeEach(() => emptySite(redisUrl, upstream.url));

  it("make one upstream request for a cold key asked for 50 times at once over 3 instances", async () => {
    const three = await startInstances(3, redisUrl);
    const answers = await coldKeyRequests(three, SYSCFG);
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(JSON.parse(answers[0]?.text ?? "").data).toEqual({ themePortal: "1,1" });
    expect(upstream.count(SYSCFG)).toBe(1);
  });

  it("serve an answer one instance loaded from the others, with the freshness it has left", async () => {
    const [a, b, c] = (await startInstances(3, redisUrl, { CACHE_TTL_MS: "60000" })) as [Instance, Instance, Instance];
    const first = await send(a, "/api/portal/message/news/1");
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(upstream.count()).toBe(1);

    for (const other of [b, c]) {
      const shared = await send(other, "/api/portal/message/news/1");
      expect(shared.status).toBe(200);
      expect(shared.text).toBe(first.text);
      expect(shared.headers.get("etag")).toBe(first.headers.get("etag"));
      const maxAge = Number(/max-age=(\d+)/.exec(shared.headers.get("cache-control") ?? "")?.[1]);
      expect(maxAge).toBeGreaterThan(0);
      expect(maxAge).toBeLessThanOrEqual(60);
      // Kept locally from then on: a fresh hit that never asks Redis.
      expect((await send(other, "/api/portal/message/news/1")).headers.get("x-cache")).toBe("HIT");
    }
    // Not-found answers are shared too: a scan of unknown ids costs the upstream once per id, not once per instance.
    expect((await send(a, "/api/portal/message/news/404")).status).toBe(404);
    expect((await send(b, "/api/portal/message/news/404")).status).toBe(404);
    expect(upstream.count()).toBe(2);
  });

  it("let a purge on an instance refresh from the upstream, not from the entry it purged", async () => {
    const [a, b] = (await startInstances(2, redisUrl)) as [Instance, Instance];
    expect(JSON.parse((await send(a, SYSCFG)).text).data).toEqual({ themePortal: "1,1" });
    upstream.routes.set(SYSCFG, { themePortal: "2,2" });
    a.app.portal.purger.purge({ tags: [], paths: [SYSCFG], all: false, mode: "soft" }, "local");
    // The stale answer goes out while one refresh runs; then the new one, here and on the instance that never had it.
    await send(a, SYSCFG);
    await a.app.portal.cache.idle();
    expect(JSON.parse((await send(a, SYSCFG)).text).data).toEqual({ themePortal: "2,2" });
    expect(JSON.parse((await send(b, SYSCFG)).text).data).toEqual({ themePortal: "2,2" });
    expect(upstream.count(SYSCFG)).toBe(2);
  });

  it("keep two sites on one Redis apart: an instance never serves another content source's answers", async () => {
    const live = await startInstance(redisUrl);
    expect(JSON.parse((await send(live, SYSCFG)).text).data).toEqual({ themePortal: "1,1" });
    const stagingUpstream = await startStandInUpstream({ "/api/portal/sys/syscfg": { themePortal: "2,2" } });
    try {
      // What an earlier run's site on this port left: any answer found now would be someone else's, not the live site's.
      await emptySite(redisUrl, stagingUpstream.url);
      const staging = await startInstance(redisUrl, { API_BASE_URL: stagingUpstream.url });
      expect(JSON.parse((await send(staging, SYSCFG)).text).data).toEqual({ themePortal: "2,2" });
      expect(stagingUpstream.count(SYSCFG)).toBe(1);
    } finally {
      await stagingUpstream.close();
    }
  });

  it("answer from another instance's stale answer when the upstream fails and they have nothing of their own", async () => {
    // Stale as soon as it is stored: kept for CACHE_STALE_MS past that.
    const [a, b] = (await startInstances(2, redisUrl, { CACHE_TTL_MS: "0" })) as [Instance, Instance];
    const first = await send(a, "/api/portal/message/news/1");
    expect(first.status).toBe(200);
    upstream.behaviour = "error";
    const fallback = await send(b, "/api/portal/message/news/1");
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get("x-cache")).toBe("STALE");
    expect(fallback.text).toBe(first.text);
    // It asked the upstream (once), found it failing, and kept no error.
    expect(upstream.count()).toBe(2);
    expect((await send(b, "/api/portal/message/news/2")).status).toBe(502);
  });

  it("count a visitor's reader update once, and its reader rate once, whichever instances its PUTs reach", async () => {
    const three = await startInstances(3, redisUrl, { READER_RATE_PER_MIN: "40" });
    const puts = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        send(three[i % 3] as Instance, "/api/portal/reader/reader", { method: "PUT", body: { type: 2, pid: 1 } }),
      ),
    );
    expect(puts.map((p) => p.status)).toEqual(Array(30).fill(200));
    expect(upstream.requests.filter((r) => r.method === "PUT")).toHaveLength(1);

    // 30 of 40 spent; 10 more across the instances, then every instance refuses.
    for (let i = 0; i < 10; i++) {
      const put = await send(three[i % 3] as Instance, "/api/portal/reader/reader", { method: "PUT", body: { type: 1, pid: 100 + i } });
      expect(put.status).toBe(200);
    }
    for (const instance of three) {
      const refused = await send(instance, "/api/portal/reader/reader", { method: "PUT", body: { type: 1, pid: 999 } });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Another visitor has an allowance of its own.
    const other = await send(three[0] as Instance, "/api/portal/reader/reader", {
      method: "PUT",
      body: { type: 1, pid: 999 },
      address: "192.0.2.1",
    });
    expect(other.status).toBe(200);
    expect(upstream.requests.filter((r) => r.method === "PUT")).toHaveLength(12);
  });

  it("spend one miss budget per client across instances", async () => {
    // 12 a minute: a burst of 2.
    const [a, b, c] = (await startInstances(3, redisUrl, { MISS_RATE_PER_MIN: "12" })) as [Instance, Instance, Instance];
    expect((await send(a, "/api/portal/message/news/1")).status).toBe(200);
    expect((await send(b, "/api/portal/message/news/2")).status).toBe(200);
    const refused = await send(c, "/api/portal/message/news/3");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(upstream.count()).toBe(2);
    // What is cached is never refused, on any instance, even one that has not kept it yet.
    expect((await send(c, "/api/portal/message/news/1")).status).toBe(200);
    expect((await send(c, "/api/portal/message/news/3", { address: "192.0.2.1" })).status).toBe(404);
  });

  it("pass messages between instances", async () => {
    const tiers = [0, 1].map(() => connectSharedTier(redisUrl, siteIdOf(upstream.url), pino({ level: "silent" }), TEST_REDIS_DEADLINE_MS));
    try {
      await Promise.all(tiers.map((tier) => tier.connected()));
      const [sender, receiver] = tiers.map(createPubSub) as [ReturnType<typeof createPubSub>, ReturnType<typeof createPubSub>];
      const received = new Promise<string>((resolve) => {
        void receiver.subscribe("purge", resolve).then(() => sender.publish("purge", '{"tags":["news:1"]}'));
      });
      expect(await received).toBe('{"tags":["news:1"]}');
    } finally {
      for (const tier of tiers) tier.close();
    }
  });

  it("carry a signed purge sent to one instance to the others, which then serve the new content", async () => {
    const secret = newPurgeSecret();
    const [a, b, c] = (await startInstances(3, redisUrl, { PURGE_SECRET: secret, CACHE_TTL_MS: "600000" })) as [
      Instance,
      Instance,
      Instance,
    ];
    await Promise.all([a, b, c].map((instance) => instance.app.portal.sharedPurges?.subscribed));
    for (const instance of [a, b, c]) expect(JSON.parse((await send(instance, SYSCFG)).text).data).toEqual({ themePortal: "1,1" });
    upstream.routes.set(SYSCFG, { themePortal: "2,2" });

    const arrived = [b, c].map(
      (instance) =>
        new Promise<PurgeRequest>((resolve) =>
          instance.app.portal.purger.onPurge((request, origin) => origin === "remote" && resolve(request)),
        ),
    );
    const purge = signedPurge(secret, { tags: ["site"] });
    const res = await fetch(`${a.origin}/portal/_purge`, { method: "POST", headers: purge.headers, body: purge.body });
    expect(res.status).toBe(202);
    // The others apply it as sent, its webhook id included: a replay of it is refused wherever it lands.
    for (const request of await Promise.all(arrived))
      expect(request).toMatchObject({ tags: ["site"], mode: "soft", id: purge.headers["webhook-id"] });
    const replay = await fetch(`${b.origin}/portal/_purge`, { method: "POST", headers: purge.headers, body: purge.body });
    expect(replay.status).toBe(409);

    for (const instance of [a, b, c]) {
      await send(instance, SYSCFG);
      await instance.app.portal.cache.idle();
      expect(JSON.parse((await send(instance, SYSCFG)).text).data).toEqual({ themePortal: "2,2" });
    }
    // One refresh from the upstream for the three instances: the first loads it, the others take it from Redis.
    expect(upstream.count(SYSCFG)).toBe(2);
  });
});
