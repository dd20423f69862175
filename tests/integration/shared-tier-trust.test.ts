/**
 * REDIS_URL: what instances read back from Redis is input, not their own. Entries written
 * there by someone else (raw HTML, a home script, a status the cache never stores,
 * garbage, too large) are misses answered from the upstream, logged once; garbage in
 * the limits and on the purge channel is ignored; a signed purge is accepted once by
 * every instance on the Redis, one started after it included.
 */
import { Redis } from "ioredis";
import { beforeEach, expect, it } from "vitest";
import { scriptHashOf } from "../../server/http/security-headers.ts";
import type { PurgeRequest } from "../../server/purge/purge-request.ts";
import { siteIdOf } from "../../server/redis/redis-connection.ts";
import { homeScriptSource } from "../../shared/home-script.ts";
import { newPurgeSecret, signedPurge } from "../support/purge-request.ts";
import { describeWithRedis, emptySite, type RedisServer, startRedisServer } from "../support/redis.ts";
import { type Instance, instancesForEachTest, startInstance, upstream } from "../support/shared-tier-instances.ts";

const NEWS_PATH = "/api/portal/message/news/1";
const NEWS = {
  id: 1,
  title: "真实新闻",
  brief: "简介",
  img: "",
  dateTime: "20240101000000",
  detail: '<p>正文<img src="/portal/media/a.svg"></p>',
};
const VISITOR = "198.51.100.20";
const HOSTILE_HTML =
  '<meta http-equiv="refresh" content="0;url=https://evil.example"><form action="https://evil.example"><button>go</button></form>' +
  '<iframe src="https://evil.example"></iframe><p>forged</p>';
const FORGED_SCRIPT = "window.__forged = 1";

function homeRoutes(html: string): Record<string, unknown> {
  return {
    "/api/portal/sys/syscfg": { themePortal: "1,2", metaKeywords: "", metaDescription: "", copyright: "©", record: "", edi: "" },
    "/api/portal/sys/sysauthor": { name: "测试公司", fname: "测试科技有限公司", logo: "", phone: "", email: "" },
    "/api/portal/sys/menu/list": [],
    "/api/portal/message/indexslide/list": [],
    "/api/portal/product/product/list": [],
    "/api/portal/service/service/list": [],
    "/api/portal/message/news/list": { pageDataList: [], totalCount: 0, totalPageCount: 1 },
    "/api/portal/message/notice/list": { pageDataList: [], totalCount: 0, totalPageCount: 1 },
    "/api/portal/crm/partner/list": [],
    "/api/portal/sys/indexhtml": { html },
  };
}

async function send(instance: Instance, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const res = await fetch(instance.origin + path, {
    method: init.method ?? "GET",
    headers: { "x-forwarded-for": VISITOR, ...init.headers },
    body: init.body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The tier's key of a cached API answer, as the instances name it. */
const entryKeyOf = (apiPath: string) => `portal:v1:${siteIdOf(upstream.url)}:cache:api:${apiPath.slice("/api/portal".length)}`;

/** An entry as an instance writes one: fresh for a minute from now, with this header and body. */
function entryOf(body: string | Buffer, header: { madeAt?: unknown; freshForMs?: unknown; meta?: unknown } = {}): Buffer {
  const madeAt = Date.now();
  const fields = { madeAt, freshForMs: 60_000, meta: { status: 200, etag: '"forged"' }, ...header };
  const freshUntil = String(madeAt + 60_000).padStart(15, "0");
  return Buffer.concat([Buffer.from(`${freshUntil}${JSON.stringify(fields)}\n`), Buffer.from(body)]);
}

const envelope = (data: unknown, code = 0) => JSON.stringify({ code, msg: "", data });

const warnings = (instance: Instance, pattern: RegExp) => instance.logs.filter((line) => line.level === "warn" && pattern.test(line.msg));

instancesForEachTest({ [NEWS_PATH]: NEWS, "/api/portal/sys/syscfg": { themePortal: "1,1" } });

describeWithRedis("instances reading what someone else wrote into their Redis", (redisUrl) => {
  let redis: Redis;
  beforeEach(async () => {
    await emptySite(redisUrl, upstream.url);
    redis = new Redis(redisUrl);
    return () => redis.disconnect();
  });

  const hostileEntries: [string, () => Promise<unknown>][] = [
    ["a detail of raw HTML", () => redis.set(entryKeyOf(NEWS_PATH), entryOf(envelope({ ...NEWS, detail: HOSTILE_HTML })))],
    ['a status of "abc"', () => redis.set(entryKeyOf(NEWS_PATH), entryOf(envelope(NEWS), { meta: { status: "abc", etag: "x" } }))],
    [
      "a status the cache never stores",
      () => redis.set(entryKeyOf(NEWS_PATH), entryOf(envelope(NEWS), { meta: { status: 302, etag: "x" } })),
    ],
    ["a failure envelope", () => redis.set(entryKeyOf(NEWS_PATH), entryOf(envelope(NEWS, 500)))],
    ["a header of the wrong types", () => redis.set(entryKeyOf(NEWS_PATH), entryOf(envelope(NEWS), { madeAt: "soon", meta: [200] }))],
    ["a freshness from the far future", () => redis.set(entryKeyOf(NEWS_PATH), entryOf(envelope(NEWS), { madeAt: 9e14, freshForMs: 0 }))],
    ["a truncated entry", () => redis.set(entryKeyOf(NEWS_PATH), entryOf(envelope(NEWS)).subarray(0, 60))],
    ["garbage", () => redis.set(entryKeyOf(NEWS_PATH), Buffer.from("\u0000\uffff not an entry at all"))],
    ["a body of 3 MB", () => redis.set(entryKeyOf(NEWS_PATH), entryOf(envelope({ ...NEWS, title: "x".repeat(3 * 1024 * 1024) })))],
    ["a hash instead of a string", () => redis.hset(entryKeyOf(NEWS_PATH), "status", "abc")],
  ];

  it.each(hostileEntries)("answer from the upstream, as a miss, over %s", async (_name, write) => {
    const [a, b] = [await startInstance(redisUrl), await startInstance(redisUrl)];
    await write();
    for (const instance of [a, b]) {
      // Twice: the second is the hot path's fresh hit of what the first stored.
      for (let i = 0; i < 2; i++) {
        const res = await send(instance, NEWS_PATH);
        expect(res.status).toBe(200);
        expect(res.text).not.toMatch(/http-equiv|<form|<iframe|forged/);
        expect(JSON.parse(res.text).data.title).toBe(NEWS.title);
      }
    }
    // Whichever instance asked first loaded it and replaced the entry; the other took that one.
    expect(upstream.count(NEWS_PATH)).toBe(1);
    // Not an outage: sharing stays on.
    for (const instance of [a, b]) expect(instance.app.portal.sharedTier?.state()).toBe("connected");
    expect(warnings(a, /^Redis unavailable/)).toEqual([]);
  });

  it("log a foreign entry once, however many are read", async () => {
    const a = await startInstance(redisUrl);
    for (const id of [1, 2, 3]) {
      upstream.routes.set(`/api/portal/message/news/${id}`, { ...NEWS, id });
      await redis.set(entryKeyOf(`/api/portal/message/news/${id}`), entryOf(envelope({ ...NEWS, id, detail: HOSTILE_HTML })));
      expect((await send(a, `/api/portal/message/news/${id}`)).status).toBe(200);
    }
    expect(upstream.count()).toBe(3);
    expect(warnings(a, /^a shared cache entry read from Redis is not as this server writes it/)).toHaveLength(1);
  });

  it("still share the answers they wrote themselves, images and all", async () => {
    const [a, b] = [await startInstance(redisUrl), await startInstance(redisUrl)];
    const first = await send(a, NEWS_PATH);
    const shared = await send(b, NEWS_PATH);
    expect(shared.text).toBe(first.text);
    expect(shared.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(JSON.parse(shared.text).data.detail).toContain("/portal/_img?url=%2Fportal%2Fmedia%2Fa.svg");
    expect(upstream.count(NEWS_PATH)).toBe(1);
    expect(warnings(b, /read from Redis/)).toEqual([]);
  });

  it("run a home script only as the upstream sent it, never one written into Redis", async () => {
    for (const [path, data] of Object.entries(homeRoutes('<section class="intro"><p>上游首页</p></section>')))
      upstream.routes.set(path, data);
    await redis.set(entryKeyOf("/api/portal/sys/indexhtml"), entryOf(envelope({ html: `useEval|${FORGED_SCRIPT}` })));
    const a = await startInstance(redisUrl, {}, { pages: true });
    const page = await send(a, "/portal/index.html");
    expect(page.status).toBe(200);
    expect(page.text).toContain("上游首页");
    expect(page.text).not.toContain("__forged");
    expect(page.headers.get("content-security-policy")).not.toContain(scriptHashOf(homeScriptSource(FORGED_SCRIPT)));
    expect(page.headers.get("content-security-policy")).not.toContain("sha256-");

    // The upstream's own script runs on every instance, each having asked the upstream for it.
    const script = "container.dataset.ran = '1'";
    upstream.routes.set("/api/portal/sys/indexhtml", { html: `useEval|${script}` });
    const b = await startInstance(redisUrl, {}, { pages: true });
    await redis.del(entryKeyOf("/api/portal/sys/indexhtml"));
    const withScript = await send(b, "/portal/index.html");
    expect(withScript.headers.get("content-security-policy")).toContain(scriptHashOf(homeScriptSource(script)));
    expect(await redis.exists(entryKeyOf("/api/portal/sys/indexhtml"))).toBe(0);
  });

  it("go on with their own limits over a count that is not a number, and put it right", async () => {
    const a = await startInstance(redisUrl, { MISS_RATE_PER_MIN: "600" });
    for (const id of [1, 2, 3, 4]) upstream.routes.set(`/api/portal/message/news/${id}`, { ...NEWS, id });
    // The visitor's count, under the keyed hash the instance names it by.
    expect((await send(a, "/api/portal/message/news/4")).status).toBe(200);
    const [countKey] = await redis.keys(`portal:v1:${siteIdOf(upstream.url)}:limit:miss:*`);
    await redis.set(countKey as string, "lots");
    for (const id of [1, 2, 3]) expect((await send(a, `/api/portal/message/news/${id}`)).status).toBe(200);
    expect(a.app.portal.sharedTier?.state()).toBe("connected");
    expect(warnings(a, /^Redis unavailable/)).toEqual([]);
    expect(warnings(a, /^a shared limit's count read from Redis/)).toHaveLength(1);
    expect(Number(await redis.get(countKey as string))).toBeGreaterThan(0);
  });

  it("ignore messages on the purge channel that are not purges", async () => {
    const a = await startInstance(redisUrl);
    await a.app.portal.sharedPurges?.subscribed;
    const applied: PurgeRequest[] = [];
    const last = new Promise<void>((resolve) =>
      a.app.portal.purger.onPurge((request, origin) => {
        if (origin !== "remote") return;
        applied.push(request);
        if (request.tags.includes("news:1")) resolve();
      }),
    );
    const channel = `portal:v1:${siteIdOf(upstream.url)}:channel:purge`;
    for (const message of [
      "not json",
      "null",
      JSON.stringify({ from: "x", request: { tags: "site", paths: [] } }),
      JSON.stringify({ from: "x", request: { tags: ["with space"], paths: [] } }),
      JSON.stringify({ from: "x", request: { tags: [], paths: ["/elsewhere"] } }),
      JSON.stringify({ from: "x", request: { tags: ["x".repeat(1000)], paths: [] } }),
      JSON.stringify({ from: "x", request: { tags: [], paths: [], all: false, mode: "hard" } }),
      JSON.stringify({ from: "x", request: { tags: ["news:1"], paths: [], all: false, mode: "soft" } }),
    ])
      await redis.publish(channel, message);
    await last;
    expect(applied).toEqual([{ tags: ["news:1"], paths: [], all: false, mode: "soft" }]);
    expect(warnings(a, /^a purge message read from Redis/)).toHaveLength(1);
  });

  it("catch up over a purges' record that is not one, without taking it for Redis failing", async () => {
    const a = await startInstance(redisUrl);
    await a.app.portal.sharedPurges?.subscribed;
    await redis.set(`portal:v1:${siteIdOf(upstream.url)}:purges`, "not a sorted set");
    // Subscriptions cut: once made again, the instance reads the record for what it missed.
    await redis.call("CLIENT", "KILL", "TYPE", "pubsub");
    const outcome = /^the purges' record read from Redis|^Redis unavailable/;
    while (!a.logs.some((line) => outcome.test(line.msg))) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(warnings(a, /^Redis unavailable/)).toEqual([]);
    expect(a.app.portal.sharedTier?.state()).toBe("connected");
    expect(await redis.exists(`portal:v1:${siteIdOf(upstream.url)}:purges`)).toBe(0);
  });

  it("refuse a signed purge replayed to an instance started after it was accepted", async () => {
    const secret = newPurgeSecret();
    const a = await startInstance(redisUrl, { PURGE_SECRET: secret });
    const purge = signedPurge(secret, { tags: ["site"] });
    const post = (instance: Instance) => send(instance, "/portal/_purge", { method: "POST", headers: purge.headers, body: purge.body });
    expect((await post(a)).status).toBe(202);
    // A restart: the new process has never heard of the purge.
    const b = await startInstance(redisUrl, { PURGE_SECRET: secret });
    expect((await post(b)).status).toBe(409);
    expect((await post(a)).status).toBe(409);
  });
});

describeWithRedis("instances whose Redis is away when a purge arrives", () => {
  let redis: RedisServer;
  beforeEach(async () => {
    redis = await startRedisServer();
    return () => redis.stop();
  });

  it("refuse a signed purge with 503 to be retried, and go on answering visitors", async () => {
    const secret = newPurgeSecret();
    const a = await startInstance(redis.url, { PURGE_SECRET: secret });
    expect((await send(a, NEWS_PATH)).status).toBe(200);
    await redis.stop();
    const purge = signedPurge(secret, { tags: ["site"] });
    const post = () => send(a, "/portal/_purge", { method: "POST", headers: purge.headers, body: purge.body });
    const refused = await post();
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await send(a, NEWS_PATH)).status).toBe(200);
    expect((await send(a, "/api/portal/sys/syscfg")).status).toBe(200);

    // Once Redis is back the retry is accepted, and only once.
    await redis.start();
    while (a.app.portal.sharedTier?.state() !== "connected") await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await post()).status).toBe(202);
    expect((await post()).status).toBe(409);
  });
});
