/**
 * Counts on the pages the server renders in English take their plural form ("1 item",
 * "2 items"); in Chinese they read as before.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { startContentApi } from "../../server/content/api.ts";
import { type ContentDb, openContentDb } from "../../server/content/db.ts";
import { importSite } from "../../server/content/site-io.ts";
import { pageHref } from "../../shared/routes.ts";
import { buildFixtureSite } from "../content/fixture-site.ts";
import { testConfig } from "../support/config.ts";
import { createSourceRenderer } from "../support/source-renderer.ts";

const totalOf = (html: string) => /class="pager-total">([^<]*)</.exec(html)?.[1];

describe("list totals", () => {
  let dir: string;
  let content: ContentDb;
  let api: Awaited<ReturnType<typeof startContentApi>>;
  let app: PortalApp;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-plurals-"));
    content = await openContentDb(`sqlite:${path.join(dir, "portal.db")}`);
    const site = buildFixtureSite();
    await importSite(content, { ...site, news: site.news.slice(0, 1), notices: site.notices.slice(0, 2), readers: [] });
    api = await startContentApi(content);
    app = createApp(testConfig(), { upstreamUrl: api.url, database: content, renderer: await createSourceRenderer() });
  });

  afterAll(async () => {
    app.portal.close();
    await api.close();
    await content.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ["newsList", "en", "1 item"],
    ["noticeList", "en", "2 items"],
    ["newsList", "zh-CN", "共 1 条"],
    ["noticeList", "zh-CN", "共 2 条"],
  ] as const)("shows the %s total in %s as %s", async (page, lang, total) => {
    const res = await request(app).get(`${pageHref(page)}?lang=${lang}`);
    expect(res.status).toBe(200);
    expect(totalOf(res.text)).toBe(total);
  });
});
