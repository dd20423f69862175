/**
 * The search engines' queue shared by instances, on SQLite and PostgreSQL: two apps on one
 * database send each address once; and the search index's refresh puts the items it finds
 * new or changed before the engines, for an upstream that never purges.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Registry } from "prom-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { openContentDb } from "../../server/content/db.ts";
import { queueAddressesByHand } from "../../server/push/push.ts";
import { testConfig } from "../support/config.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { demoUpstreamRoutes } from "../support/demo-upstream.ts";
import { type BaiduReceiver, type EngineReceiver, startBaiduReceiver, startIndexNowReceiver } from "../support/engine-receivers.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const ORIGIN = "https://www.example.com";
const TOKEN = "baiduToken123";

let indexNow: EngineReceiver;
let baidu: BaiduReceiver;
const apps: PortalApp[] = [];

beforeAll(async () => {
  [indexNow, baidu] = await Promise.all([startIndexNowReceiver(), startBaiduReceiver({ site: "www.example.com", token: TOKEN })]);
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.portal.close()));
});
afterAll(async () => {
  await Promise.all([indexNow.close(), baidu.close()]);
});

const pushEnv = (databaseUrl: string, gatherMs = "0") => ({
  DATABASE_URL: databaseUrl,
  PUBLIC_ORIGIN: ORIGIN,
  INDEXNOW_KEY: "portal-indexnow-key-0123456789",
  INDEXNOW_ENDPOINT: indexNow.url,
  BAIDU_PUSH_TOKEN: TOKEN,
  BAIDU_PUSH_ENDPOINT: baidu.url,
  PUSH_GATHER_MS: gatherMs,
});

const arrivedAt = (receiver: EngineReceiver, urls: readonly string[]) =>
  receiver.waitFor(() => urls.every((url) => receiver.accepted().includes(url)));

describeEachDatabase("search engine queue", (databases) => {
  afterAll(() => databases.dispose());

  it("two instances on one database send each address once", async () => {
    const databaseUrl = await databases.create();
    // Migrated once before the instances start, as the server's start does.
    await (await openContentDb(databaseUrl)).close();
    const env = pushEnv(databaseUrl);
    for (let i = 0; i < 2; i++) {
      const app = createApp(testConfig(env), { upstreamUrl: "http://127.0.0.1:9", push: { pollMs: 2 } });
      app.portal.push.start();
      apps.push(app);
    }
    const tag = `${databases.dialect}-${Date.now()}`;
    const urls = Array.from({ length: 60 }, (_, i) => `${ORIGIN}/portal/message/news/${i + 1}?run=${tag}`);
    // In several runs while both instances poll: each claim races the other instance's.
    for (let at = 0; at < urls.length; at += 6) await queueAddressesByHand(testConfig(env).push, databaseUrl, urls.slice(at, at + 6));
    await Promise.all([arrivedAt(indexNow, urls), arrivedAt(baidu, urls)]);
    for (const receiver of [indexNow, baidu]) {
      const counts = new Map<string, number>();
      for (const url of receiver.calls.flatMap((call) => call.urls)) counts.set(url, (counts.get(url) ?? 0) + 1);
      expect(urls.filter((url) => counts.get(url) !== 1)).toEqual([]);
    }
  });
});

describe("the search engines' metrics", () => {
  it("count addresses sent, failed and dropped per engine, Baidu's remaining quota and the oldest address waiting", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "portal-push-metrics-"));
    const databaseUrl = `sqlite:${path.join(dir, "portal.db")}`;
    const registry = new Registry();
    const env = pushEnv(databaseUrl);
    const app = createApp(testConfig(env), {
      upstreamUrl: "http://127.0.0.1:9",
      metricsRegistry: registry,
      push: { pollMs: 5, backoffBaseMs: 20 },
    });
    apps.push(app);
    const value = async (name: string, labels: Record<string, string> = {}) => {
      const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
      const found = (metric?.values as { labels: Record<string, string>; value: number }[] | undefined)?.find((v) =>
        Object.entries(labels).every(([k, l]) => v.labels[k] === l),
      );
      return found?.value;
    };
    const queue = (urls: string[]) => queueAddressesByHand(testConfig(env).push, databaseUrl, urls);
    const page = (n: number) => `${ORIGIN}/portal/product/${n}?metrics=${Date.now()}`;
    try {
      baidu.quota = 5;
      const sent = [page(1), page(2), page(3)];
      await queue(sent);
      app.portal.push.start();
      await Promise.all([arrivedAt(indexNow, sent), arrivedAt(baidu, sent)]);
      await app.portal.push.settled();

      indexNow.refuseWith = 422;
      const refused = page(4);
      await queue([refused]);
      await indexNow.waitFor((calls) => calls.some((call) => call.status === 422 && call.urls.includes(refused)));
      indexNow.refuseWith = undefined;
      indexNow.up = false;
      const failing = page(5);
      await queue([failing]);
      await indexNow.waitFor((calls) => calls.some((call) => call.status === 503 && call.urls.includes(failing)));

      // Wait on the counters themselves: each is written once its answer is recorded.
      const counted = async () =>
        (await value("portal_push_addresses_total", { engine: "indexnow", outcome: "dropped" })) === 1 &&
        (await value("portal_push_addresses_total", { engine: "indexnow", outcome: "failed" })) === 1 &&
        (await value("portal_push_addresses_total", { engine: "baidu", outcome: "sent" })) === 5;
      while (!(await counted())) await new Promise((resolve) => setImmediate(resolve));
      expect(await value("portal_push_addresses_total", { engine: "indexnow", outcome: "sent" })).toBe(3);
      expect(await value("portal_push_baidu_remaining")).toBe(0);
      // The failed address waits, and its age shows; once it is sent, nothing waits.
      while (!((await value("portal_push_oldest_waiting_seconds")) ?? 0)) await new Promise((resolve) => setImmediate(resolve));
      indexNow.up = true;
      await arrivedAt(indexNow, [failing]);
      await app.portal.push.settled();
      while ((await value("portal_push_oldest_waiting_seconds")) !== 0) await new Promise((resolve) => setImmediate(resolve));
    } finally {
      indexNow.up = true;
      indexNow.refuseWith = undefined;
      baidu.quota = 1_000_000;
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the search index's refresh", () => {
  let upstream: StandInUpstream;
  let dir: string;
  beforeAll(async () => {
    upstream = await startStandInUpstream(demoUpstreamRoutes("lang"));
    dir = await mkdtemp(path.join(tmpdir(), "portal-push-refresh-"));
  });
  afterAll(async () => {
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("puts an item it finds new or changed before the engines, without any purge, and nothing unchanged", async () => {
    const env = {
      ...pushEnv(`sqlite:${path.join(dir, "portal.db")}`, "100"),
      API_BASE_URL: upstream.url,
      CONTENT_LANG_PARAM: "lang",
      SEARCH_REFRESH_MS: "3600000",
      SEARCH_INDEX_PATH: path.join(dir, "search.db"),
    };
    const app = createApp(testConfig(env), { push: { pollMs: 5 } });
    apps.push(app);
    app.portal.push.start();
    app.portal.search.start();
    // The first build starts on the next turn; it reads the site as it was.
    await new Promise((resolve) => setImmediate(resolve));
    await app.portal.search.settled();
    expect(app.portal.search.figures().documents).toBeGreaterThan(0);
    const from = { indexNow: indexNow.calls.length, baidu: baidu.calls.length };

    // The upstream gets a news item and changes a translated one, and tells no one.
    const list = upstream.routes.get("/api/portal/message/news/list") as (url: URL) => { body: { data: { pageDataList: object[] } } };
    const detail30 = upstream.routes.get("/api/portal/message/news/30") as (url: URL) => { body: { data: Record<string, unknown> } };
    const added = { id: 777, title: "新的消息", brief: "简介", img: "", dateTime: "20991231120000", detail: "<p>正文</p>" };
    upstream.routes.set("/api/portal/message/news/list", (url: URL) => {
      const answer = structuredClone(list(url));
      const page = answer.body.data.pageDataList as { id: number; title: string }[];
      for (const item of page) if (item.id === 30) item.title = `${item.title} (changed)`;
      if (url.searchParams.get("pageIndex") === "0") page.unshift(added);
      return answer;
    });
    upstream.routes.set("/api/portal/message/news/777", (url: URL) => ({
      body: { code: 0, msg: "ok", data: url.searchParams.get("lang") === "en" ? { ...added, lang: "zh-CN" } : added },
    }));
    upstream.routes.set("/api/portal/message/news/30", (url: URL) => {
      const answer = structuredClone(detail30(url));
      answer.body.data.title = `${String(answer.body.data.title)} (changed)`;
      return answer;
    });
    await app.portal.search.rebuild();

    const expected = [`${ORIGIN}/portal/en/message/news/30`, `${ORIGIN}/portal/message/news/30`, `${ORIGIN}/portal/message/news/777`];
    await Promise.all([arrivedAt(indexNow, expected), arrivedAt(baidu, expected)]);
    await app.portal.push.settled();
    expect([...new Set(indexNow.calls.slice(from.indexNow).flatMap((call) => call.urls))].sort()).toEqual(expected);
    expect([...new Set(baidu.calls.slice(from.baidu).flatMap((call) => call.urls))].sort()).toEqual(expected);
  });
});
