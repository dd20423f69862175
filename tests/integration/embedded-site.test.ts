/**
 * The BFF in front of the embedded content API, as `npm start` runs them: a real
 * database (SQLite, and PostgreSQL when available), the content API on loopback, and
 * the app proxying to it through its upstream client.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { startContentApi } from "../../server/content/api.ts";
import { type ContentDb, openContentDb } from "../../server/content/db.ts";
import { importSite } from "../../server/content/site-io.ts";
import { API_CALLS, callPath } from "../../shared/api-calls.ts";
import { testConfig } from "../support/config.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { buildFixtureSite } from "../support/fixture-site.ts";

interface Running {
  content: ContentDb;
  api: Awaited<ReturnType<typeof startContentApi>>;
  app: PortalApp;
}

async function start(databaseUrl: string): Promise<Running> {
  const content = await openContentDb(databaseUrl);
  const api = await startContentApi(content);
  const app = createApp(testConfig({ TRUST_PROXY: "loopback", READER_RATE_PER_MIN: "1000" }), { upstreamUrl: api.url, database: content });
  return { content, api, app };
}

async function stop(running: Running): Promise<void> {
  running.app.portal.close();
  await running.api.close();
  await running.content.close();
}

describeEachDatabase("bff over embedded api", (databases) => {
  let databaseUrl: string;
  let running: Running;
  const site = buildFixtureSite();

  beforeAll(async () => {
    databaseUrl = await databases.create();
    const content = await openContentDb(databaseUrl);
    await importSite(content, site);
    await content.close();
    running = await start(databaseUrl);
  });

  afterAll(async () => {
    await stop(running);
    await databases.dispose();
  });

  it("answers every call with code 0 through the cache", async () => {
    const ids: Record<string, number> = {
      "/product/product/{id}": site.products[0]?.id ?? 0,
      "/service/service/{id}": site.services[0]?.id ?? 0,
      "/message/news/{id}": site.news[0]?.id ?? 0,
      "/message/notice/{id}": site.notices[0]?.id ?? 0,
      "/job/job/{id}": site.jobs[0]?.id ?? 0,
    };
    for (const call of API_CALLS.filter((c) => c.method === "GET")) {
      const path = callPath(call, ids[call.path]);
      const query = call.id === "readerCount" ? `?type=2&pid=${site.news[0]?.id}` : "";
      const res = await request(running.app).get(`/api/portal${path}${query}`);
      expect(res.status, path).toBe(200);
      expect(res.body.code, path).toBe(0);
      expect(res.body.data, path).not.toBeNull();
    }
    const again = await request(running.app).get("/api/portal/message/news/list?pageIndex=1&pageMaxCount=10");
    expect(again.body.data.pageDataList).toHaveLength(10);
    expect(again.body.data.totalCount).toBe(site.news.length);
  });

  it("answers 404 through the proxy for an item the database does not have", async () => {
    const res = await request(running.app).get("/api/portal/message/news/424242");
    expect(res.status).toBe(404);
  });

  it("counts 200 concurrent reader PUTs from distinct clients exactly, and keeps the count over a restart", async () => {
    const pid = site.news[1]?.id as number;
    const countOf = async () => (await request(running.app).get(`/api/portal/reader/reader?type=2&pid=${pid}`)).body.data as number;
    const before = await countOf();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        request(running.app)
          .put("/api/portal/reader/reader")
          .set("X-Forwarded-For", `203.0.${i >> 8}.${i & 255}`)
          .send({ type: 2, pid }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(200);
    expect(await countOf()).toBe(before + 200);

    await stop(running);
    running = await start(databaseUrl);
    expect(await countOf()).toBe(before + 200);
  });
});

describe("the embedded API rejects what the proxy would", () => {
  it("refuses a reader PUT for a message that does not exist with 404", async () => {
    const { sqliteDatabases } = await import("../support/databases.ts");
    const dbs = sqliteDatabases();
    const content = await openContentDb(await dbs.create());
    await importSite(content, buildFixtureSite());
    const api = await startContentApi(content);
    const app = createApp(testConfig(), { upstreamUrl: api.url });
    const res = await request(app).put("/api/portal/reader/reader").send({ type: 2, pid: 424242 });
    expect(res.status).toBe(404);
    app.portal.close();
    await api.close();
    await content.close();
    await dbs.dispose();
  });
});
