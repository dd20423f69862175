/**
 * Per-test setup of the purge suites: a stand-in upstream with one news item, and an app on
 * it with long TTLs and a purge secret. `upstream` and `app` are live bindings, new for
 * every test.
 */
import request from "supertest";
import { afterEach, beforeEach, expect } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { createProdRenderer } from "../../server/render/prod-renderer.ts";
import { testConfig } from "./config.ts";
import { newPurgeSecret, signedPurge } from "./purge-request.ts";
import { settled } from "./settled.ts";
import { type StandInUpstream, startStandInUpstream } from "./stand-in-upstream.ts";

export const NEWS_PAGE = "/portal/message/news/12";
export const NEWS_API = "/api/portal/message/news/12";
export const EN_NEWS_PAGE = "/portal/en/message/news/12";
export const NEWS_UPSTREAM = "/api/portal/message/news/12";
export const SECRET = newPurgeSecret();
export const SECOND_SECRET = newPurgeSecret();

export let upstream: StandInUpstream;
export let app: PortalApp;

export const news = (title: string) => ({ id: 12, title, detail: `<p>${title} text</p>`, createTime: "2026-01-02 03:04:05" });

export async function build(env: Record<string, string> = {}): Promise<PortalApp> {
  app = createApp(
    testConfig({ API_BASE_URL: upstream.url, CACHE_TTL_MS: "600000", CACHE_STALE_MS: "600000", PURGE_SECRET: SECRET, ...env }),
    { renderer: await createProdRenderer() },
  );
  return app;
}

/** An app the test made itself, as `app`, closed after the test like a built one. */
export function adopt(made: PortalApp): void {
  app = made;
}

export const tagsOf = (header: string | undefined, separator: string) => (header ?? "").split(separator).sort();

export const purge = (body: unknown, secret = SECRET) => {
  const signed = signedPurge(secret, body);
  return request(app).post("/portal/_purge").set(signed.headers).send(signed.body);
};

/** A page and its API answer, cached and settled. */
export async function warm(): Promise<void> {
  expect((await request(app).get(NEWS_PAGE)).text).toContain("First title");
  await settled(app);
  expect((await request(app).get(NEWS_PAGE)).headers["x-page-cache"]).toBe("HIT");
  expect((await request(app).get(NEWS_API)).headers["x-cache"]).toBe("HIT");
  expect(upstream.count(NEWS_UPSTREAM)).toBe(1);
}

/** Starts the upstream before each test of the calling file, and closes it and the app after it. */
export function purgeUpstreamForEachTest(): void {
  beforeEach(async () => {
    upstream = await startStandInUpstream({
      "/api/portal/sys/syscfg": { themePortal: "1,1" },
      "/api/portal/sys/sysauthor": { name: "标签公司", fname: "标签科技有限公司" },
      "/api/portal/sys/menu/list": [],
      "/api/portal/message/news/list": { total: 1, list: [news("First title")] },
      [NEWS_UPSTREAM]: news("First title"),
    });
  });

  afterEach(async () => {
    app?.portal.close();
    await upstream.close();
  });
}
