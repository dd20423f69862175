/**
 * Two instances on one real Redis (TEST_REDIS_URL) and one stand-in WeChat API: asked at once,
 * they fetch the token and the ticket once between them and sign with the same ticket; a
 * failure one of them met pauses the other's fetches too.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { describeWithRedis, emptySite } from "../support/redis.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";
import { type StandInWechat, startStandInWechat, WECHAT_APP_SECRET, WECHAT_ERRORS } from "../support/wechat-api.ts";
import { SITE_ORIGIN, signs, startWechatInstance, type WechatInstance } from "../support/wechat-instance.ts";

const PAGE = `${SITE_ORIGIN}/portal/job/list.html`;

describeWithRedis("WeChat's ticket shared through Redis", (redisUrl) => {
  let wechat: StandInWechat;
  let upstream: StandInUpstream;
  let instances: WechatInstance[] = [];

  beforeEach(async () => {
    wechat = await startStandInWechat();
    upstream = await startStandInUpstream();
    await emptySite(redisUrl, upstream.url);
    instances = await Promise.all([0, 1].map(() => startWechatInstance(wechat.url, upstream.url, { env: { REDIS_URL: redisUrl } })));
  });

  afterEach(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    await wechat.close();
    await upstream.close();
  });

  it("fetches the token and the ticket once between two instances asked at once", async () => {
    const answers = await Promise.all(instances.flatMap((instance) => Array.from({ length: 10 }, () => instance.signature(PAGE))));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(wechat.tokenFetches).toBe(1);
    expect(wechat.ticketFetches).toBe(1);
    for (const { body } of answers) expect(signs(body.data, wechat.ticket, PAGE)).toBe(true);
  });

  it("serves an instance started later from the ticket another fetched", async () => {
    const [first] = instances;
    expect((await first?.signature(PAGE))?.status).toBe(200);
    const later = await startWechatInstance(wechat.url, upstream.url, { env: { REDIS_URL: redisUrl } });
    instances.push(later);
    const answer = await later.signature(PAGE);
    expect(signs(answer.body.data, wechat.ticket, PAGE)).toBe(true);
    expect(wechat.tokenFetches).toBe(1);
  });

  it("pauses every instance's fetches for a minute after one met an error", async () => {
    wechat.tokenError = WECHAT_ERRORS.notWhitelisted;
    const [one, other] = instances;
    expect((await one?.signature(PAGE))?.status).toBe(502);
    expect(wechat.tokenFetches).toBe(1);
    const answer = await other?.signature(PAGE);
    expect(answer?.status).toBe(502);
    expect(Number(answer?.retryAfter)).toBeGreaterThan(0);
    expect(wechat.tokenFetches).toBe(1);
    for (const instance of instances) {
      for (const line of instance.logText) expect(line).not.toContain(WECHAT_APP_SECRET);
    }
  });
});
