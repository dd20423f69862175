/**
 * REDIS_URL with Redis stopped under requests: no visitor sees an error, readiness says
 * degraded and each instance logs it once; with Redis back, sharing resumes and a purge made
 * meanwhile is caught up on. Each test runs a redis-server of its own.
 */
import { Redis } from "ioredis";
import { beforeEach, expect, it, vi } from "vitest";
import { createPubSub } from "../../server/redis/pub-sub.ts";
import type { SharedTier } from "../../server/redis/redis-connection.ts";
import { describeWithRedis, type RedisServer, startRedisServer } from "../support/redis.ts";
import {
  coldKeyRequests,
  type Instance,
  instancesForEachTest,
  readiness,
  SYSCFG,
  send,
  startInstances,
  upstream,
} from "../support/shared-tier-instances.ts";

instancesForEachTest();

describeWithRedis("instances whose Redis stops and starts again", () => {
  let redis: RedisServer;
  beforeEach(async () => {
    redis = await startRedisServer();
    return () => redis.stop();
  });

  it("answer every request without it, say degraded once, and share again when it is back", async () => {
    const three = await startInstances(3, redis.url);
    expect((await send(three[0] as Instance, SYSCFG)).status).toBe(200);
    for (const instance of three) expect(await readiness(instance)).toMatchObject({ status: "ready", sharedTier: "connected" });

    let resumed = 0;
    three[0]?.app.portal.sharedTier?.onResume(() => resumed++);
    await redis.stop();
    // Under requests: cached, shared, cold, reader updates and counts, on every instance.
    const paths = [SYSCFG, "/api/portal/message/news/1", "/api/portal/message/news/2", "/api/portal/reader/reader?type=2&pid=1"];
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const instance = three[i % 3] as Instance;
        return i % 5 === 4
          ? send(instance, "/api/portal/reader/reader", { method: "PUT", body: { type: 2, pid: i } })
          : send(instance, paths[i % paths.length] as string);
      }),
    );
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    for (const instance of three) {
      const ready = await readiness(instance);
      expect(ready).toMatchObject({ status: "degraded", sharedTier: "unavailable" });
      // More requests while it is away: still one line per instance.
      expect((await send(instance, "/api/portal/message/news/1")).status).toBe(200);
    }
    for (const instance of three) {
      expect(instance.logs.filter((line) => line.level === "warn" && /^Redis unavailable/.test(line.msg))).toHaveLength(1);
    }
    // A message cannot be sent: the sender is told, to act on its own.
    expect(await createPubSub(three[0]?.app.portal.sharedTier as SharedTier).publish("purge", "{}")).toBe(false);

    await redis.start();
    for (const instance of three) {
      while ((await readiness(instance)).status !== "ready") await new Promise((resolve) => setTimeout(resolve, 50));
      expect(instance.logs.filter((line) => /sharing with other instances resumed/.test(line.msg))).toHaveLength(1);
    }
    // So that what was missed meanwhile can be caught up.
    expect(resumed).toBe(1);
    upstream.requests.length = 0;
    const again = await coldKeyRequests(three, "/api/portal/message/news/5");
    expect(again.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(upstream.count("/api/portal/message/news/5")).toBe(1);

    // Closing the connection on the way out is not an outage.
    const first = three[0] as Instance;
    first.app.portal.close();
    while (first.app.portal.sharedTier?.redis.status !== "end") await new Promise((resolve) => setImmediate(resolve));
    expect(first.logs.filter((line) => line.level === "warn")).toHaveLength(1);
  });

  it("go on without a Redis that stops answering, past REDIS_DEADLINE_MS, and share again once it does", async () => {
    const [a, b] = (await startInstances(2, redis.url, { REDIS_DEADLINE_MS: "400" })) as [Instance, Instance];
    const sleeper = new Redis(redis.url);
    try {
      // The server answers nothing for 3 s; its connections stay open.
      const asleep = sleeper.call("DEBUG", "SLEEP", "3");
      const answers = await Promise.all([
        send(a, "/api/portal/message/news/1"),
        send(b, "/api/portal/message/news/2"),
        send(a, "/api/portal/reader/reader", { method: "PUT", body: { type: 2, pid: 1 } }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(await readiness(a)).toMatchObject({ status: "degraded", sharedTier: "unavailable" });
      const gaveUp = a.logs.find((line) => /^Redis unavailable/.test(line.msg)) as { err?: string } | undefined;
      expect(gaveUp?.err).toBe("no answer within 400 ms");
      await asleep;
      for (const instance of [a, b]) {
        while ((await readiness(instance)).status !== "ready") await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await send(b, "/api/portal/message/news/3")).status).toBe(404);
      // b stores its answer in Redis as it answers: wait for it there, whatever the machine's load.
      await vi.waitFor(async () => expect(await sleeper.keys("*:cache:*message/news/3*")).not.toEqual([]), {
        timeout: 10_000,
        interval: 50,
      });
      expect((await send(a, "/api/portal/message/news/3")).status).toBe(404);
      expect(upstream.count("/api/portal/message/news/3")).toBe(1);
    } finally {
      sleeper.disconnect();
    }
  });

  it("catch up, once reconnected, on a purge made while an instance could not hear it", async () => {
    const [a, b] = (await startInstances(2, redis.url, { CACHE_TTL_MS: "600000" })) as [Instance, Instance];
    await Promise.all([a, b].map((instance) => instance.app.portal.sharedPurges?.subscribed));
    for (const instance of [a, b]) expect(JSON.parse((await send(instance, SYSCFG)).text).data).toEqual({ themePortal: "1,1" });
    upstream.routes.set(SYSCFG, { themePortal: "2,2" });
    const admin = new Redis(redis.url);
    try {
      // Every subscription is cut; the purge is published before any is made again (reconnection waits 100 ms or more).
      await admin.call("CLIENT", "KILL", "TYPE", "pubsub");
      a.app.portal.purger.purge({ tags: ["site"], paths: [], all: false, mode: "soft" }, "local");
      while (!b.logs.some((line) => /^applied the purges made while this instance was away/.test(line.msg))) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await b.app.portal.sharedPurges?.caughtUp();
      await send(b, SYSCFG);
      await b.app.portal.cache.idle();
      expect(JSON.parse((await send(b, SYSCFG)).text).data).toEqual({ themePortal: "2,2" });
    } finally {
      admin.disconnect();
    }
  });
});
