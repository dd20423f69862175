/**
 * SEED_CONTENT: what an empty embedded database is given at startup. With `none` it stays
 * empty, and the site says it has no content yet (in Chinese and English) instead of
 * showing the demo company (the built site's pages); with `demo` (the default) it gets the demo site.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareContentDb } from "../../server/content/api-thread.ts";
import { type ContentDb, openContentDb } from "../../server/content/db.ts";
import { DEMO_SITE_FILE } from "../../server/project-root.ts";
import { pageHref } from "../../shared/routes.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";

const visibleText = (html: string) =>
  html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");

describe("SEED_CONTENT", () => {
  let dir: string;
  let demoCompany: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-seed-"));
    const demo = JSON.parse(await readFile(DEMO_SITE_FILE, "utf8")) as { sysauthor: { fname: string } };
    demoCompany = demo.sysauthor.fname;
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("loads the demo site into an empty database by default", async () => {
    const url = `sqlite:${path.join(dir, "demo.db")}`;
    expect(await prepareContentDb(url, "demo")).toBe("loaded-demo");
    expect(await prepareContentDb(url, "demo")).toBe("has-site");
  });

  describe("none", () => {
    let content: ContentDb;
    let site: BuiltSite;

    beforeAll(async () => {
      const url = `sqlite:${path.join(dir, "none.db")}`;
      expect(await prepareContentDb(url, "none")).toBe("empty");
      site = await startBuiltSite({ DATABASE_URL: url, SEED_CONTENT: "none" });
      content = await openContentDb(url);
    });

    afterAll(async () => {
      await site?.close();
      await content?.close();
    });

    it("leaves the database empty", async () => {
      const settings = await content.db.selectFrom("setting").select("key").execute();
      const messages = await content.db.selectFrom("messages").select("id").execute();
      expect(settings).toEqual([]);
      expect(messages).toEqual([]);
    });

    it.each([
      ["zh-CN", "网站还没有发布内容", "内容发布后会显示在这里。"],
      ["en", "No content has been published yet", "The site's content will appear here once it is published."],
    ] as const)("shows the home page's no-content state in %s, and no demo company", async (lang, title, hint) => {
      const res = await request(site.origin).get(pageHref("home", undefined, lang));
      expect(res.status).toBe(200);
      const text = visibleText(res.text);
      expect(text).toContain(title);
      expect(text).toContain(hint);
      expect(res.text).not.toContain(demoCompany);
    });

    it.each([
      ["newsList", "暂无内容"],
      ["noticeList", "暂无内容"],
      ["jobSocietyList", "暂无内容"],
      ["founders", "暂无内容"],
    ] as const)("answers the %s page 200 with its empty state", async (page, empty) => {
      const res = await request(site.origin).get(pageHref(page));
      expect(res.status).toBe(200);
      expect(visibleText(res.text)).toContain(empty);
      expect(res.text).not.toContain(demoCompany);
    });
  });
});
