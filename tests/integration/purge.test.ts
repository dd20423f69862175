/**
 * Cache tags and purging against a real stand-in upstream: the tags pages and API answers
 * carry, what a purge by tag, path or of everything does to the next request, and that a
 * fetch under way when a purge lands never writes its older answer back.
 */
import request from "supertest";
import { describe, expect, it, vi } from "vitest";
import {
  app,
  build,
  EN_NEWS_PAGE,
  NEWS_API,
  NEWS_PAGE,
  NEWS_UPSTREAM,
  news,
  purge,
  purgeUpstreamForEachTest,
  tagsOf,
  upstream,
  warm,
} from "../support/purge-app.ts";
import { settled } from "../support/settled.ts";

purgeUpstreamForEachTest();

describe("cache tags", () => {
  it("tags an API answer by its call: the item and its entity, the list and its entity, a site-wide record", async () => {
    await build();
    const item = await request(app).get(NEWS_API);
    expect(tagsOf(item.headers["cache-tag"], ",")).toEqual(["news", "news:12"]);
    expect(tagsOf(item.headers["surrogate-key"], " ")).toEqual(["news", "news:12"]);
    const list = await request(app).get("/api/portal/message/news/list?pageIndex=0&pageMaxCount=4");
    expect(tagsOf(list.headers["cache-tag"], ",")).toEqual(["news", "news:list"]);
    expect((await request(app).get("/api/portal/sys/syscfg")).headers["cache-tag"]).toBe("site");
    expect((await request(app).get("/api/portal/sys/menu/list")).headers["cache-tag"]).toBe("menu:list,menu");
  });

  it("tags a page with the union of its data's tags, on the rendering and on every cached answer of it", async () => {
    await build();
    const expected = ["menu", "menu:list", "news", "news:12", "site"];
    const first = await request(app).get(NEWS_PAGE);
    expect(first.headers["x-page-cache"]).toBe("MISS");
    expect(tagsOf(first.headers["cache-tag"], ",")).toEqual(expected);
    expect(tagsOf(first.headers["surrogate-key"], " ")).toEqual(expected);
    await settled(app);
    const hit = await request(app).get(NEWS_PAGE);
    expect(hit.headers["x-page-cache"]).toBe("HIT");
    expect(tagsOf(hit.headers["cache-tag"], ",")).toEqual(expected);
    expect(tagsOf(hit.headers["surrogate-key"], " ")).toEqual(expected);
  });
});

describe("purging", () => {
  it("by tag: the next visitor gets the stale page at once, one refetch runs, and the new content follows", async () => {
    await build();
    await warm();
    upstream.routes.set(NEWS_UPSTREAM, news("Second title"));
    const purged = await purge({ tags: ["news:12"] });
    expect(purged.status).toBe(202);
    expect(purged.headers["cache-control"]).toBe("no-store");
    // The API answer and the page.
    expect(purged.body).toEqual({ purged: { mode: "soft", tags: { "news:12": 2 }, paths: {} } });

    const stale = await request(app).get(NEWS_PAGE);
    expect(stale.headers["x-page-cache"]).toBe("STALE");
    expect(stale.text).toContain("First title");
    await settled(app);
    expect(upstream.count(NEWS_UPSTREAM)).toBe(2);
    // The re-render the stale answer started waited for the data's refresh: the page now holds the new content.
    const page = await request(app).get(NEWS_PAGE);
    expect(page.headers["x-page-cache"]).toBe("HIT");
    expect(page.text).toContain("Second title");
    expect(page.text).not.toContain("First title");
    const api = await request(app).get(NEWS_API);
    expect(api.headers["x-cache"]).toBe("HIT");
    expect(api.body.data.title).toBe("Second title");
    // Exactly one refetch, however many visitors came since.
    expect(upstream.count(NEWS_UPSTREAM)).toBe(2);
  });

  it("leaves entries of other tags alone", async () => {
    await build();
    await warm();
    const purged = await purge({ tags: ["notice:12", "news:list"] });
    expect(purged.body.purged.tags).toEqual({ "notice:12": 0, "news:list": 0 });
    expect((await request(app).get(NEWS_PAGE)).headers["x-page-cache"]).toBe("HIT");
  });

  it("hard: the entries are dropped, so the next visitor waits for the new content", async () => {
    await build();
    await warm();
    upstream.routes.set(NEWS_UPSTREAM, news("Second title"));
    const purged = await purge({ tags: ["news"], mode: "hard" });
    expect(purged.body).toEqual({ purged: { mode: "hard", tags: { news: 2 }, paths: {} } });
    const page = await request(app).get(NEWS_PAGE);
    expect(page.headers["x-page-cache"]).toBe("MISS");
    expect(page.text).toContain("Second title");
    expect(upstream.count(NEWS_UPSTREAM)).toBe(2);
  });

  it("by path: a page in every language, or one API answer", async () => {
    await build();
    await warm();
    await request(app).get(EN_NEWS_PAGE);
    await settled(app);
    const pages = await purge({ paths: [NEWS_PAGE, "/portal/message/news/13"] });
    expect(pages.body.purged.paths).toEqual({ [NEWS_PAGE]: 2, "/portal/message/news/13": 0 });
    expect((await request(app).get(NEWS_PAGE)).headers["x-page-cache"]).toBe("STALE");
    expect((await request(app).get(EN_NEWS_PAGE)).headers["x-page-cache"]).toBe("STALE");
    expect((await request(app).get(NEWS_API)).headers["x-cache"]).toBe("HIT");

    const api = await purge({ paths: [NEWS_API] });
    expect(api.body.purged.paths).toEqual({ [NEWS_API]: 1 });
    expect((await request(app).get(NEWS_API)).headers["x-cache"]).toBe("STALE");
  });

  it("everything: every entry of both caches turns stale", async () => {
    await build();
    await warm();
    const before = (app.portal.cache.stats().entries ?? 0) + (app.portal.pageCache?.stats().entries ?? 0);
    const purged = await purge({ all: true });
    expect(purged.body.purged.all).toBe(before);
    // The API first: the page's re-render refreshes the data it reads.
    expect((await request(app).get("/api/portal/sys/syscfg")).headers["x-cache"]).toBe("STALE");
    expect((await request(app).get(NEWS_PAGE)).headers["x-page-cache"]).toBe("STALE");
  });

  it("never stores an answer fetched before the purge: the fetch under way is held until after it", async () => {
    await build();
    const release = upstream.hold(NEWS_UPSTREAM);
    // Asked before the purge: the upstream has this request and holds its (old) answer.
    const early = request(app)
      .get(NEWS_API)
      .then((res) => res);
    await vi.waitFor(() => expect(upstream.count(NEWS_UPSTREAM)).toBe(1), { interval: 5 });
    upstream.routes.set(NEWS_UPSTREAM, news("Second title"));
    const purged = await purge({ tags: ["news:12"] });
    expect(purged.status).toBe(202);
    // Asked after the purge: a fetch of its own, not a share of the outdated one; answered and stored first.
    const after = await request(app).get(NEWS_API);
    expect(after.body.data.title).toBe("Second title");
    expect(upstream.count(NEWS_UPSTREAM)).toBe(2);
    release();
    expect((await early).body.data.title).toBe("First title");
    await settled(app);
    const next = await request(app).get(NEWS_API);
    expect(next.headers["x-cache"]).toBe("HIT");
    expect(next.body.data.title).toBe("Second title");
  });
});
