/**
 * A preview in front of an external content API (docs/behaviour.md#preview), on the built server: every upstream
 * call a preview makes carries PREVIEW_PARAM=1, none is answered from or kept in a cache, and a visitor's own
 * preview parameter never reaches the upstream.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../server/config.ts";
import { previewLinkOf } from "../../server/preview/preview.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { DEMO_CLASSIFY, demoUpstreamRoutes } from "../support/demo-upstream.ts";
import { newPurgeSecret } from "../support/purge-request.ts";
import { describeWithRedis, emptySite, siteKeyPrefix } from "../support/redis.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const SECRET = newPurgeSecret();
const DETAIL = "/portal/message/news/33";
let upstream: StandInUpstream;
let site: BuiltSite;

beforeAll(async () => {
  upstream = await startStandInUpstream(demoUpstreamRoutes());
  site = await startBuiltSite({
    API_BASE_URL: upstream.url,
    PORTAL_CLASSIFY: DEMO_CLASSIFY,
    PREVIEW_SECRET: SECRET,
    PREVIEW_PARAM: "draft",
  });
});
afterAll(async () => {
  await site?.close();
  await upstream?.close();
});

const get = (path: string, cookie?: string, on = site) =>
  fetch(`${on.origin}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });

async function previewCookie(path: string, on = site): Promise<string> {
  const [secret] = parseConfig({ PREVIEW_SECRET: SECRET }).preview.secrets;
  if (!secret) throw new Error("no secret");
  const opened = await get(previewLinkOf(path, Math.floor(Date.now() / 1000) + 600, secret), undefined, on);
  expect(opened.status).toBe(303);
  return (opened.headers.get("set-cookie") ?? "").split(";")[0] as string;
}

describe("a preview in front of an external content API", () => {
  it("asks the upstream with PREVIEW_PARAM=1 on every call, each time, and leaves the visitors' cached page as it was", async () => {
    const visitorFirst = await get(DETAIL);
    expect(visitorFirst.status).toBe(200);
    const visitorHtml = await visitorFirst.text();
    const asked = () => upstream.count("/api/portal/message/news/33");
    const before = asked();

    const cookie = await previewCookie(DETAIL);
    const from = upstream.requests.length;
    for (let i = 1; i <= 2; i++) {
      const shown = await get(DETAIL, cookie);
      expect(shown.status).toBe(200);
      expect(shown.headers.get("cache-control")).toBe("private, no-store");
      expect(shown.headers.get("x-robots-tag")).toBe("noindex");
      await shown.text();
      // Read again each time: no cache answered it.
      expect(asked()).toBe(before + i);
    }
    const data = await get("/portal/_preview/api/message/news/list?pageIndex=0&pageMaxCount=5", cookie);
    expect(data.headers.get("cache-control")).toBe("private, no-store");
    expect((await data.json()).code).toBe(0);
    const previewCalls = upstream.requests.slice(from);
    expect(previewCalls.length).toBeGreaterThan(2);
    for (const call of previewCalls) expect(new URL(call.url, upstream.url).searchParams.get("draft"), call.url).toBe("1");

    // The visitor's page comes from the page cache, as it was before the preview.
    const visitorAfter = await get(DETAIL);
    expect(visitorAfter.headers.get("x-page-cache")).toBe("HIT");
    expect(await visitorAfter.text()).toBe(visitorHtml);
    expect(asked()).toBe(before + 2);
  });

  it("never passes a visitor's own preview parameter to the upstream", async () => {
    const from = upstream.requests.length;
    const answer = await get("/api/portal/message/news/32?draft=1&preview=1");
    expect(answer.status).toBe(200);
    const calls = upstream.requests.slice(from).filter((r) => r.url.startsWith("/api/portal/message/news/32"));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("/api/portal/message/news/32");
  });
});

describe("a preview's miss budget", () => {
  let limited: BuiltSite;
  beforeAll(async () => {
    limited = await startBuiltSite({
      API_BASE_URL: upstream.url,
      PORTAL_CLASSIFY: DEMO_CLASSIFY,
      PREVIEW_SECRET: SECRET,
      MISS_RATE_PER_MIN: "30",
    });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it("is charged for every render, as any client's misses are; the visitors' cached page is still answered", async () => {
    expect((await get(DETAIL, undefined, limited)).status).toBe(200);
    const cookie = await previewCookie(DETAIL, limited);
    // Each preview renders: the client's budget (a bucket of three) runs out within a few.
    const statuses: number[] = [];
    while (statuses.length < 10 && statuses.at(-1) !== 429) statuses.push((await get(DETAIL, cookie, limited)).status);
    expect(statuses[0]).toBe(200);
    expect(statuses.at(-1)).toBe(429);
    const hit = await get(DETAIL, undefined, limited);
    expect(hit.status).toBe(200);
    expect(hit.headers.get("x-page-cache")).toBe("HIT");
  });
});

describeWithRedis("a preview beside the shared tier", (redisUrl) => {
  let shared: BuiltSite;
  beforeAll(async () => {
    await emptySite(redisUrl, upstream.url);
    shared = await startBuiltSite({
      API_BASE_URL: upstream.url,
      PORTAL_CLASSIFY: DEMO_CLASSIFY,
      PREVIEW_SECRET: SECRET,
      REDIS_URL: redisUrl,
    });
  });
  afterAll(async () => {
    await shared?.close();
  });

  it("writes nothing to the shared tier's cache; a visitor's read of the same page does", async () => {
    const redis = new Redis(redisUrl);
    const keysOf = async (id: number) =>
      (await redis.keys(`${siteKeyPrefix(upstream.url)}*`)).filter((key) => key.includes(`/message/news/${id}`));
    try {
      const cookie = await previewCookie("/portal/message/news/31", shared);
      for (let i = 0; i < 2; i++) expect((await get("/portal/message/news/31", cookie, shared)).status).toBe(200);
      expect((await get("/portal/_preview/api/message/news/31", cookie, shared)).status).toBe(200);
      expect(await keysOf(31)).toEqual([]);
      expect((await get("/portal/message/news/31", undefined, shared)).status).toBe(200);
      expect((await keysOf(31)).length).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
  });
});
