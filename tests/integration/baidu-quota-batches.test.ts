/**
 * Baidu's daily quota sizes its batches: a batch carries at most what Baidu last said remains, so a
 * Baidu that refuses a batch larger than its remaining quota still takes the site's addresses, and
 * after midnight in China, when the quota renews, batches are full-sized again.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { openContentDb } from "../../server/content/db.ts";
import { queueAddressesByHand } from "../../server/push/push.ts";
import { BAIDU_REMAIN_KEY, nextChinaMidnight } from "../../server/push/push-sender.ts";
import { createPushStore } from "../../server/push/push-store.ts";
import { testConfig } from "../support/config.ts";
import { type BaiduReceiver, startBaiduReceiver } from "../support/engine-receivers.ts";

const ORIGIN = "https://www.example.com";
const TOKEN = "baiduToken123";

describe("Baidu's batches", () => {
  let baidu: BaiduReceiver;
  let dir: string;
  beforeAll(async () => {
    baidu = await startBaiduReceiver({ site: "www.example.com", token: TOKEN }, 2);
    baidu.refusesBatchOverQuota = true;
    dir = await mkdtemp(path.join(tmpdir(), "portal-baidu-batches-"));
  });
  afterAll(async () => {
    await baidu.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("carry no more than the quota Baidu last said remains, and full batches again after midnight in China", async () => {
    let clock = Date.now();
    const env = {
      DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
      PUBLIC_ORIGIN: ORIGIN,
      BAIDU_PUSH_TOKEN: TOKEN,
      BAIDU_PUSH_ENDPOINT: baidu.url,
      PUSH_GATHER_MS: "0",
    };
    // Migrated once before the instance starts, as the server's start does.
    await (await openContentDb(env.DATABASE_URL)).close();
    const app = createApp(testConfig(env), { upstreamUrl: "http://127.0.0.1:9", push: { pollMs: 5, now: () => clock } });
    const queue = (ids: number[]) =>
      queueAddressesByHand(
        testConfig(env).push,
        env.DATABASE_URL,
        ids.map((id) => `${ORIGIN}/portal/product/${id}`),
        clock,
      );
    const calls = () => baidu.calls.map((call) => [call.urls.length, call.status]);
    const store = createPushStore(env.DATABASE_URL);
    // The answer is recorded after the receiver has sent it: wait for the count to be written.
    const recorded = async (remain: number) => {
      while ((await store.readState(BAIDU_REMAIN_KEY)) !== String(remain)) await new Promise((resolve) => setImmediate(resolve));
    };
    const afterMidnight = () => {
      clock = nextChinaMidnight(clock) + 1000;
    };
    try {
      app.portal.push.start();
      await queue([1]);
      await baidu.waitFor((all) => all.length === 1);
      await recorded(1);
      // Baidu said 1 remains; the quota renews at midnight in China, and that count with it.
      afterMidnight();
      baidu.quota = 3;
      await queue([2, 3]);
      await baidu.waitFor((all) => all.length === 2);
      expect(calls()).toEqual([
        [1, 200],
        [2, 200],
      ]);
      // 1 remains: of three addresses one goes today, the others once the quota renews.
      await queue([4, 5, 6]);
      await baidu.waitFor((all) => all.length === 3);
      expect(calls()[2]).toEqual([1, 200]);
      await recorded(0);
      afterMidnight();
      baidu.quota = 10;
      await baidu.waitFor((all) => all.length === 4);
      expect(calls()).toEqual([
        [1, 200],
        [2, 200],
        [1, 200],
        [2, 200],
      ]);
      expect(baidu.accepted().sort()).toEqual([1, 2, 3, 4, 5, 6].map((id) => `${ORIGIN}/portal/product/${id}`));
    } finally {
      await app.portal.close();
      await store.close();
    }
  });
});
