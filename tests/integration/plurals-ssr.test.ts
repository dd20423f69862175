/**
 * Counts on the pages the built site renders in English take their plural form ("1 item",
 * "2 items"); in Chinese they read as before.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openContentDb } from "../../server/content/db.ts";
import { importSite } from "../../server/content/site-io.ts";
import { pageHref } from "../../shared/routes.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { buildFixtureSite } from "../support/fixture-site.ts";

const totalOf = (html: string) => /class="pager-total">([^<]*)</.exec(html)?.[1];

describe("list totals", () => {
  let dir: string;
  let server: BuiltSite;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-plurals-"));
    const databaseUrl = `sqlite:${path.join(dir, "portal.db")}`;
    const content = await openContentDb(databaseUrl);
    const site = buildFixtureSite();
    await importSite(content, { ...site, news: site.news.slice(0, 1), notices: site.notices.slice(0, 2), readers: [] });
    await content.close();
    server = await startBuiltSite({ DATABASE_URL: databaseUrl });
  });

  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ["newsList", "en", "1 item"],
    ["noticeList", "en", "2 items"],
    ["newsList", "zh-CN", "共 1 条"],
    ["noticeList", "zh-CN", "共 2 条"],
  ] as const)("shows the %s total in %s as %s", async (page, lang, total) => {
    const res = await request(server.origin).get(pageHref(page, undefined, lang));
    expect(res.status).toBe(200);
    expect(totalOf(res.text)).toBe(total);
  });
});
