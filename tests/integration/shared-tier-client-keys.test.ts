/**
 * REDIS_URL: no Redis key names a client by its address. The miss budget, the reader rate and
 * the reader de-duplication are counted under a keyed hash of the client (an IPv4 address, or
 * an IPv6 /64), the same on every instance: keyed by FORM_SECRET when set, else by a salt the
 * first instance stores in Redis; so the limits still hold across instances.
 */
import { Redis } from "ioredis";
import { beforeEach, expect, it } from "vitest";
import { siteIdOf } from "../../server/redis/redis-connection.ts";
import { describeWithRedis, emptySite, type RedisServer, startRedisServer } from "../support/redis.ts";
import { type Instance, instancesForEachTest, startInstance, upstream } from "../support/shared-tier-instances.ts";

const NEWS = { id: 1, title: "新闻", brief: "简介", img: "", dateTime: "20240101000000", detail: "<p>正文</p>" };
const READER = "/api/portal/reader/reader";
const FORM_SECRET = "client-keys-test-form-secret-0123456789";

/** Each visitor, and every form of its address that must not appear in a key. */
const VISITORS = [
  { family: "IPv4", address: "198.51.100.77", forms: ["198.51.100.77"] },
  {
    family: "IPv6",
    address: "2001:db8:1234:5678:9abc:def0:1:2",
    forms: ["2001:db8:1234:5678", "2001:db8:1234:5678::/64", "9abc:def0"],
  },
];
const KEYING: { keyedBy: string; env: Record<string, string> }[] = [
  { keyedBy: "FORM_SECRET", env: { FORM_SECRET } },
  { keyedBy: "a salt kept in Redis", env: {} },
];
const CASES = VISITORS.flatMap((visitor) => KEYING.map((keying) => ({ ...visitor, ...keying })));

async function send(instance: Instance, address: string, path: string, put?: unknown) {
  const res = await fetch(instance.origin + path, {
    method: put === undefined ? "GET" : "PUT",
    headers: { "x-forwarded-for": address, "content-type": "application/json" },
    body: put === undefined ? undefined : JSON.stringify(put),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

instancesForEachTest({
  [READER]: 7,
  ...Object.fromEntries([1, 2, 3].map((id) => [`/api/portal/message/news/${id}`, { ...NEWS, id }])),
});

describeWithRedis("instances naming clients in Redis", (redisUrl) => {
  let redis: Redis;
  beforeEach(async () => {
    await emptySite(redisUrl, upstream.url);
    redis = new Redis(redisUrl);
    return () => redis.disconnect();
  });

  const prefix = () => `portal:v1:${siteIdOf(upstream.url)}:`;
  /** Every key in Redis (other sites' too, which share the server), after checking none holds any form of the visitor's address. */
  async function keysWithoutAddress(forms: string[]): Promise<string[]> {
    const stored = await redis.keys("*");
    for (const form of forms) expect(stored.filter((key) => key.toLowerCase().includes(form.toLowerCase()))).toEqual([]);
    return stored;
  }

  it.each(CASES)(
    "spend one miss budget for an $family visitor across two instances, keyed by $keyedBy",
    async ({ address, forms, env }) => {
      // 12 a minute: a burst of 2.
      const [a, b] = [
        await startInstance(redisUrl, { ...env, MISS_RATE_PER_MIN: "12" }),
        await startInstance(redisUrl, { ...env, MISS_RATE_PER_MIN: "12" }),
      ];
      expect((await send(a, address, "/api/portal/message/news/1")).status).toBe(200);
      expect((await send(a, address, "/api/portal/message/news/2")).status).toBe(200);
      const refused = await send(b, address, "/api/portal/message/news/3");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(upstream.count()).toBe(2);

      const stored = await keysWithoutAddress(forms);
      const counts = stored.filter((key) => key.startsWith(`${prefix()}limit:miss:`));
      expect(counts).toHaveLength(1);
      expect(counts[0]).toMatch(/:limit:miss:[A-Za-z0-9_-]{22}$/);
    },
  );

  it.each(CASES)(
    "count an $family visitor's reader updates once across two instances, keyed by $keyedBy",
    async ({ address, forms, env }) => {
      const settings = { ...env, READER_RATE_PER_MIN: "2", MISS_RATE_PER_MIN: "0" };
      const [a, b] = [await startInstance(redisUrl, settings), await startInstance(redisUrl, settings)];
      expect((await send(a, address, READER, { type: 1, pid: 5 })).status).toBe(200);
      const repeated = await send(b, address, READER, { type: 1, pid: 5 });
      expect(repeated.status).toBe(200);
      expect(repeated.headers.get("x-reader")).toBe("duplicate");
      // Two of two spent between the instances.
      expect((await send(b, address, READER, { type: 1, pid: 6 })).status).toBe(429);
      expect(upstream.requests.filter((r) => r.method === "PUT")).toHaveLength(1);

      const stored = await keysWithoutAddress(forms);
      expect(stored.filter((key) => key.startsWith(`${prefix()}limit:reader:`))).toHaveLength(1);
      const seen = stored.filter((key) => key.startsWith(`${prefix()}reader-seen:`));
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatch(/:reader-seen:[A-Za-z0-9_-]{22}$/);
    },
  );

  it("keep no salt in Redis when FORM_SECRET keys the hash, and one shared salt when it does not", async () => {
    const address = VISITORS[0]?.address as string;
    const withSecret = await startInstance(redisUrl, { FORM_SECRET, MISS_RATE_PER_MIN: "12" });
    expect((await send(withSecret, address, "/api/portal/message/news/1")).status).toBe(200);
    expect(await redis.exists(`${prefix()}client-salt`)).toBe(0);
    const [a, b] = [await startInstance(redisUrl, { MISS_RATE_PER_MIN: "12" }), await startInstance(redisUrl, { MISS_RATE_PER_MIN: "12" })];
    expect((await send(a, address, "/api/portal/message/news/2")).status).toBe(200);
    expect((await send(b, address, "/api/portal/message/news/3")).status).toBe(200);
    expect(await redis.get(`${prefix()}client-salt`)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The instances with a secret and those with the salt name the client differently: two counts.
    expect(await redis.keys(`${prefix()}limit:miss:*`)).toHaveLength(2);
  });

  const foreignSalts: [string, (key: string) => Promise<unknown>][] = [
    ["a hash", (key) => redis.hset(key, "salt", "short")],
    ["a string too short", (key) => redis.set(key, "short")],
    ["a string of the right length with other characters", (key) => redis.set(key, "/".repeat(43))],
  ];

  it.each(foreignSalts)("replace a salt that is %s, log it once, and still count across instances", async (_kind, write) => {
    const address = VISITORS[0]?.address as string;
    await write(`${prefix()}client-salt`);
    const [a, b] = [await startInstance(redisUrl, { MISS_RATE_PER_MIN: "12" }), await startInstance(redisUrl, { MISS_RATE_PER_MIN: "12" })];
    expect((await send(a, address, "/api/portal/message/news/1")).status).toBe(200);
    expect((await send(b, address, "/api/portal/message/news/2")).status).toBe(200);
    expect((await send(a, address, "/api/portal/message/news/3")).status).toBe(429);
    expect(await redis.get(`${prefix()}client-salt`)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const replaced = [a, b].flatMap((instance) => instance.logs.filter((line) => /^the client-key salt read from Redis/.test(line.msg)));
    expect(replaced).toHaveLength(1);
    for (const instance of [a, b]) expect(instance.logs.filter((line) => /^Redis unavailable/.test(line.msg))).toEqual([]);
  });
});

describeWithRedis("instances naming clients in a Redis that stops and starts again", () => {
  let server: RedisServer;
  beforeEach(async () => {
    server = await startRedisServer();
    return () => server.stop();
  });

  it("count on their own while it is away, and under the salt they shared before once it is back, empty", async () => {
    const [visitor, other] = ["198.51.100.80", "198.51.100.81"];
    const saltKey = () => `portal:v1:${siteIdOf(upstream.url)}:client-salt`;
    const admin = new Redis(server.url, { lazyConnect: true, retryStrategy: () => 50 });
    admin.on("error", () => {});
    try {
      const a = await startInstance(server.url, { MISS_RATE_PER_MIN: "12" });
      expect((await send(a, visitor, "/api/portal/message/news/1")).status).toBe(200);
      const salt = await admin.get(saltKey());
      expect(salt).toMatch(/^[A-Za-z0-9_-]{43}$/);

      await server.stop();
      // Started while Redis is away: no salt to read, so its own budget answers (a burst of 2).
      const b = await startInstance(server.url, { MISS_RATE_PER_MIN: "12" });
      expect((await send(b, visitor, "/api/portal/message/news/1")).status).toBe(200);
      expect((await send(b, visitor, "/api/portal/message/news/2")).status).toBe(200);
      expect((await send(b, visitor, "/api/portal/message/news/3")).status).toBe(429);

      await server.start();
      for (const instance of [a, b]) {
        while (instance.app.portal.sharedTier?.state() !== "connected") await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Its purge subscription, asked for while Redis was away, was waiting for it, not failed.
      await b.app.portal.sharedPurges?.subscribed;
      // The instance that knew the salt writes it back; the newcomer reads that one.
      while ((await admin.get(saltKey())) === null) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await admin.get(saltKey())).toBe(salt);
      expect((await send(a, other, "/api/portal/message/news/2")).status).toBe(200);
      expect((await send(b, other, "/api/portal/message/news/3")).status).toBe(200);
      expect((await send(a, other, "/api/portal/message/news/9")).status).toBe(429);
      const stored = await admin.keys("*");
      expect(stored.filter((key) => key.includes(other) || key.includes(visitor))).toEqual([]);
      expect(stored.filter((key) => key.includes(":limit:miss:"))).toHaveLength(1);
    } finally {
      admin.disconnect();
    }
  });
});
