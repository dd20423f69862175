/**
 * `GET /api/portal/wechat/signature` against a stand-in WeChat API on loopback: twenty asks at
 * once cost one token and one ticket, each signature verifies; the ticket is kept until shortly
 * before it expires; a replaced token is fetched again; WeChat's error answers are 502, logged
 * without the secret, and not asked again for a minute; bad addresses are 400.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freePort } from "../../harness/free-port.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";
import { type StandInWechat, startStandInWechat, WECHAT_APP_ID, WECHAT_APP_SECRET, WECHAT_ERRORS } from "../support/wechat-api.ts";
import { SITE_ORIGIN, signs, startWechatInstance, type WechatInstance } from "../support/wechat-instance.ts";

const PAGE = `${SITE_ORIGIN}/portal/message/news/7.html?from=timeline`;

let wechat: StandInWechat;
let upstream: StandInUpstream;
let instance: WechatInstance;
let clock: number;
const now = () => clock;

beforeEach(async () => {
  clock = Date.parse("2026-03-01T08:00:00Z");
  wechat = await startStandInWechat();
  upstream = await startStandInUpstream();
  instance = await startWechatInstance(wechat.url, upstream.url, { now });
});

afterEach(async () => {
  await instance.close();
  await wechat.close();
  await upstream.close();
});

describe("the signature", () => {
  it("costs one token and one ticket for twenty asks at once, and each verifies", async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => instance.signature(PAGE)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(wechat.tokenFetches).toBe(1);
    expect(wechat.ticketFetches).toBe(1);
    expect(wechat.complaints).toEqual([]);
    for (const { body } of answers) {
      expect(body).toMatchObject({ code: 0, data: { appId: WECHAT_APP_ID, timestamp: Math.floor(clock / 1000) } });
      expect(signs(body.data, wechat.ticket, PAGE)).toBe(true);
    }
    expect(new Set(answers.map((a) => a.body.data?.nonceStr)).size).toBe(20);
  });

  it("is never stored by a cache, and signs the page without its fragment", async () => {
    const res = await fetch(`${instance.origin}/api/portal/wechat/signature?url=${encodeURIComponent(`${PAGE}#comments`)}`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(signs(body.data, wechat.ticket, PAGE)).toBe(true);
  });

  it("answers 400 naming the problem for an address that is not a page of this site, asking WeChat nothing", async () => {
    for (const url of ["https://evil.example.net/portal/index.html", `${SITE_ORIGIN}/api/portal/sys/syscfg`, "", "/portal/index.html"]) {
      const { status, body } = await instance.signature(url);
      expect(status).toBe(400);
      expect(body.msg).toMatch(/^url must be/);
    }
    const none = await fetch(`${instance.origin}/api/portal/wechat/signature`);
    expect(none.status).toBe(400);
    expect(wechat.tokenFetches + wechat.ticketFetches).toBe(0);
  });
});

describe("the ticket kept", () => {
  it("serves until shortly before it expires, then is fetched again", async () => {
    await instance.signature(PAGE);
    const first = wechat.ticket;
    clock += (7200 - 301) * 1000;
    expect(signs((await instance.signature(PAGE)).body.data, first, PAGE)).toBe(true);
    expect(wechat.ticketFetches).toBe(1);
    clock += 2000;
    const renewed = await instance.signature(PAGE);
    expect(wechat.tokenFetches).toBe(2);
    expect(wechat.ticketFetches).toBe(2);
    expect(wechat.ticket).not.toBe(first);
    expect(signs(renewed.body.data, wechat.ticket, PAGE)).toBe(true);
  });

  it("fetches a new token when WeChat says the kept one was replaced", async () => {
    wechat.ticketExpiresIn = 1200;
    await instance.signature(PAGE);
    wechat.replaceToken();
    clock += 1200 * 1000;
    const answer = await instance.signature(PAGE);
    expect(answer.status).toBe(200);
    expect(signs(answer.body.data, wechat.ticket, PAGE)).toBe(true);
    // The kept token refused once (40001), then a new one.
    expect(wechat.tokenFetches).toBe(2);
    expect(wechat.ticketFetches).toBe(3);
  });
});

describe("WeChat not answering", () => {
  it("is a 502 once the upstream timeout passes, and pages never wait for it", async () => {
    await instance.close();
    instance = await startWechatInstance(wechat.url, upstream.url, { now, env: { UPSTREAM_TIMEOUT_MS: "300" } });
    wechat.hang = true;
    const page = await fetch(`${instance.origin}/portal/index.html`, { redirect: "manual" });
    expect(page.status).toBeLessThan(500);
    expect(wechat.tokenFetches).toBe(0);
    const answer = await instance.signature(PAGE);
    expect(answer.status).toBe(502);
    expect(instance.logText.join("\n")).toContain("no answer within 300 ms");
  });
});

describe("Redis away", () => {
  it("signs all the same in an instance started while Redis is away, fetching once for itself", async () => {
    await instance.close();
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    instance = await startWechatInstance(wechat.url, upstream.url, { now, env: { REDIS_URL: nobody } });
    const answers = await Promise.all(Array.from({ length: 5 }, () => instance.signature(PAGE)));
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(200));
    for (const { body } of answers) expect(signs(body.data, wechat.ticket, PAGE)).toBe(true);
    expect(wechat.tokenFetches).toBe(1);
  });
});

describe("the JS-SDK file", () => {
  it("is WeChat's file from the package, served from this site and cached for a year", async () => {
    const res = await fetch(`${instance.origin}/portal/wechat/jweixin-1.6.0.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const served = createHash("sha256")
      .update(Buffer.from(await res.arrayBuffer()))
      .digest("hex");
    const packaged = readFileSync(createRequire(import.meta.url).resolve("jweixin-module"));
    expect(served).toBe(createHash("sha256").update(packaged).digest("hex"));
    expect(packaged.toString()).toContain("updateAppMessageShareData");
  });
});

describe("without WeChat's settings", () => {
  it("has no signature call and no JS-SDK file, and asks WeChat nothing", async () => {
    await instance.close();
    instance = await startWechatInstance(wechat.url, upstream.url, { env: { WECHAT_APP_ID: "", WECHAT_APP_SECRET: "" } });
    expect((await instance.signature(PAGE)).status).toBe(404);
    expect((await fetch(`${instance.origin}/portal/wechat/jweixin-1.6.0.js`, { redirect: "manual" })).status).not.toBe(200);
    expect(wechat.tokenFetches).toBe(0);
  });
});

describe("WeChat's error answers", () => {
  it.each([
    ["the token", "tokenError", WECHAT_ERRORS.notWhitelisted],
    ["the ticket", "ticketError", WECHAT_ERRORS.freqLimit],
  ] as const)("on %s: 502, logged without the secret, and no new fetch for a minute", async (_what, field, error) => {
    wechat[field] = error;
    const answers = await Promise.all(Array.from({ length: 5 }, () => instance.signature(PAGE)));
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(502));
    expect(answers[0]?.body.msg).toBe("WeChat's signing ticket is not available now");
    const fetchesAfterError = wechat.tokenFetches + wechat.ticketFetches;
    clock += 59_000;
    expect((await instance.signature(PAGE)).status).toBe(502);
    expect(wechat.tokenFetches + wechat.ticketFetches).toBe(fetchesAfterError);

    const warnings = instance.logText.filter((line) => line.includes(`errcode ${error.errcode}`));
    expect(warnings).toHaveLength(1);
    const metrics = await instance.metricsText();
    expect(metrics).toMatch(/portal_wechat_fetches_total\{call="(token|ticket)",outcome="error"\} 1/);
    for (const text of [...instance.logText, metrics, ...answers.map((a) => a.text)]) expect(text).not.toContain(WECHAT_APP_SECRET);

    wechat[field] = undefined;
    clock += 2000;
    const recovered = await instance.signature(PAGE);
    expect(recovered.status).toBe(200);
    expect(signs(recovered.body.data, wechat.ticket, PAGE)).toBe(true);
  });

  it("says an AppSecret WeChat refuses without quoting it", async () => {
    await instance.close();
    instance = await startWechatInstance(wechat.url, upstream.url, { now, env: { WECHAT_APP_SECRET: "0000000000000000ffffffffffffffff" } });
    const answer = await instance.signature(PAGE);
    expect(answer.status).toBe(502);
    expect(instance.logText.join("\n")).toContain("errcode 40125");
    for (const text of [...instance.logText, await instance.metricsText(), answer.text]) {
      expect(text).not.toContain("0000000000000000ffffffffffffffff");
    }
  });
});
