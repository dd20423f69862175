/**
 * Site search over an upstream content API (docs/behaviour.md#search, "Fresh and safe"): an
 * item a purge names read again within moments, and an index that survives a restart whose
 * upstream is down.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARK_END, MARK_START } from "../../shared/search.ts";
import { startBuiltSite } from "../support/built-site.ts";
import { newPurgeSecret, signedPurge } from "../support/purge-request.ts";
import { api, get, hitsOf, until } from "../support/search-calls.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

describe("search over an upstream", () => {
  const secret = newPurgeSecret();
  let upstream: StandInUpstream;
  let dir: string;
  const news = (title: string) => ({ id: 12, title, brief: "简介", dateTime: "20260101000000", detail: `<p>${title}的正文</p>` });
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "portal-search-index-"));
    upstream = await startStandInUpstream({
      "/api/portal/sys/syscfg": {},
      "/api/portal/message/news/list": {
        pageDataList: [{ id: 12, title: "年度客户大会", brief: "简介", dateTime: "20260101000000" }],
        totalCount: 1,
        totalPageCount: 1,
      },
      "/api/portal/message/news/12": news("年度客户大会"),
      "/api/portal/message/notice/list": { pageDataList: [], totalCount: 0, totalPageCount: 0 },
      "/api/portal/product/product/list": [],
      "/api/portal/service/service/list": [],
      "/api/portal/job/job/list": { pageDataList: [], totalCount: 0, totalPageCount: 0 },
    });
  });
  afterAll(async () => {
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads an item a purge names again within moments, and answers from its index after a restart while the upstream is down", async () => {
    const indexPath = path.join(dir, "search.db");
    const env = { API_BASE_URL: upstream.url, PURGE_SECRET: secret, SEARCH_REFRESH_MS: "600000", SEARCH_INDEX_PATH: indexPath };
    const site = await startBuiltSite(env);
    try {
      await until(
        () => get(site, api("客户大会")),
        (res) => hitsOf(res.text).length === 1,
        "the index is built",
      );
      // Without CONTENT_LANG_PARAM the one index answers English searches too, with English addresses.
      expect(hitsOf((await get(site, api("客户大会", "&lang=en"))).text)).toMatchObject([{ id: 12, url: "/portal/en/message/news/12" }]);
      upstream.routes.set("/api/portal/message/news/12", news("生态伙伴大会"));
      const purge = signedPurge(secret, { tags: ["news:12"] });
      expect((await fetch(`${site.origin}/portal/_purge`, { method: "POST", headers: purge.headers, body: purge.body })).status).toBe(202);
      const after = await until(
        () => get(site, api("伙伴")),
        (res) => hitsOf(res.text).length === 1,
        "the purged item is read again",
      );
      expect(hitsOf(after.text)[0]?.title).toBe(`生态${MARK_START}伙伴${MARK_END}大会`);
    } finally {
      await site.close();
    }
    await upstream.close();
    // The content API is gone: the index on disk still answers, from the first request.
    const restarted = await startBuiltSite(env);
    try {
      const res = await get(restarted, api("伙伴"));
      expect(hitsOf(res.text).map((hit) => hit.id)).toEqual([12]);
    } finally {
      await restarted.close();
    }
  });
});
