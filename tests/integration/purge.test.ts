/**
 * Cache tags and POST /portal/_purge against a real stand-in upstream: the tags pages and
 * API answers carry, what a purge by tag, path or of everything does to the next
 * request, who may purge, and that a fetch under way when a purge lands never writes
 * its older answer back.
 */
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { createProdRenderer } from "../../server/render/prod-renderer.ts";
import { testConfig } from "../support/config.ts";
import { newPurgeSecret, signedPurge } from "../support/purge-request.ts";
import { settled } from "../support/settled.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const NEWS_PAGE = "/portal/message/news/12";
const NEWS_API = "/api/portal/message/news/12";
const EN_NEWS_PAGE = "/portal/en/message/news/12";
const NEWS_UPSTREAM = "/api/portal/message/news/12";
const SECRET = newPurgeSecret();
const SECOND_SECRET = newPurgeSecret();

let upstream: StandInUpstream;
let app: PortalApp;

const news = (title: string) => ({ id: 12, title, detail: `<p>${title} text</p>`, createTime: "2026-01-02 03:04:05" });

async function build(env: Record<string, string> = {}): Promise<PortalApp> {
  app = createApp(
    testConfig({ API_BASE_URL: upstream.url, CACHE_TTL_MS: "600000", CACHE_STALE_MS: "600000", PURGE_SECRET: SECRET, ...env }),
    { renderer: await createProdRenderer() },
  );
  return app;
}

const tagsOf = (header: string | undefined, separator: string) => (header ?? "").split(separator).sort();

const purge = (body: unknown, secret = SECRET) => {
  const signed = signedPurge(secret, body);
  return request(app).post("/portal/_purge").set(signed.headers).send(signed.body);
};

/** A page and its API answer, cached and settled. */
async function warm(): Promise<void> {
  expect((await request(app).get(NEWS_PAGE)).text).toContain("First title");
  await settled(app);
  expect((await request(app).get(NEWS_PAGE)).headers["x-page-cache"]).toBe("HIT");
  expect((await request(app).get(NEWS_API)).headers["x-cache"]).toBe("HIT");
  expect(upstream.count(NEWS_UPSTREAM)).toBe(1);
}

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

describe("who may purge", () => {
  it("accepts a signature by any configured secret, and the secret itself as a bearer token", async () => {
    await build({ PURGE_SECRET: `${SECRET}, ${SECOND_SECRET}` });
    expect((await purge({ tags: ["site"] })).status).toBe(202);
    expect((await purge({ tags: ["site"] }, SECOND_SECRET)).status).toBe(202);
    const bearer = await request(app).post("/portal/_purge").set("Authorization", `Bearer ${SECOND_SECRET}`).send({ all: true });
    expect(bearer.status).toBe(202);
    // Several signatures, space-separated, one of them good (a CMS rotating its secret).
    const signed = signedPurge(SECRET, { all: true });
    const headers = { ...signed.headers, "webhook-signature": `v1,AAAA ${signed.headers["webhook-signature"]}` };
    expect((await request(app).post("/portal/_purge").set(headers).send(signed.body)).status).toBe(202);
  });

  it("refuses a bad or missing signature or token with 401", async () => {
    await build();
    const bad = signedPurge(newPurgeSecret(), { all: true });
    const wrong = await request(app).post("/portal/_purge").set(bad.headers).send(bad.body);
    expect(wrong.status).toBe(401);
    expect(wrong.body.msg).toBe("webhook-signature does not match the body");
    // A good signature over another body.
    const good = signedPurge(SECRET, { tags: ["site"] });
    expect(
      (
        await request(app)
          .post("/portal/_purge")
          .set(good.headers)
          .send(JSON.stringify({ all: true }))
      ).status,
    ).toBe(401);
    const none = await request(app).post("/portal/_purge").send({ all: true });
    expect(none.status).toBe(401);
    expect(none.body.msg).toMatch(/^sign the request/);
    const token = await request(app).post("/portal/_purge").set("Authorization", `Bearer ${SECRET}x`).send({ all: true });
    expect(token.status).toBe(401);
    expect(app.portal.cache.stats().entries).toBe(0);
  });

  it("takes a bearer token only over https or from this machine; a signature from anywhere", async () => {
    // Behind a proxy on this machine that names each client and the scheme it used.
    await build({ TRUST_PROXY: "loopback" });
    await warm();
    const bearer = (token: string, headers: Record<string, string>) =>
      request(app).post("/portal/_purge").set("Authorization", `Bearer ${token}`).set(headers).send({ all: true, mode: "hard" });
    const plain = await bearer(SECRET, { "X-Forwarded-For": "203.0.113.9" });
    expect(plain.status).toBe(403);
    expect(plain.body.msg).toMatch(/^a bearer token is taken only over https or from this machine/);
    expect(plain.headers["cache-control"]).toBe("no-store");
    // Refused before it is compared: a wrong token sent in the clear is told the same.
    expect((await bearer(`${SECRET}x`, { "X-Forwarded-For": "203.0.113.9" })).status).toBe(403);
    expect((await request(app).get(NEWS_API)).headers["x-cache"]).toBe("HIT");

    expect((await bearer(SECRET, { "X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https" })).status).toBe(202);
    // From this machine, plain http.
    expect((await bearer(SECRET, {})).status).toBe(202);
    expect((await bearer(SECRET, { "X-Forwarded-For": "127.0.0.1" })).status).toBe(202);
    const signed = signedPurge(SECRET, { all: true });
    expect(
      (await request(app).post("/portal/_purge").set(signed.headers).set("X-Forwarded-For", "203.0.113.9").send(signed.body)).status,
    ).toBe(202);
    app.portal.close();

    // With no proxy trusted, X-Forwarded-Proto and X-Forwarded-For are the client's word: the connection decides.
    await build();
    expect((await bearer(SECRET, { "X-Forwarded-For": "203.0.113.9" })).status).toBe(202);
  });

  it("refuses a timestamp more than 5 minutes off with 400, and a replayed id with 409", async () => {
    await build();
    const old = signedPurge(SECRET, { all: true }, { timestampS: Math.floor(Date.now() / 1000) - 301 });
    const late = await request(app).post("/portal/_purge").set(old.headers).send(old.body);
    expect(late.status).toBe(400);
    expect(late.body.msg).toBe("webhook-timestamp is more than 5 minutes off");
    const future = signedPurge(SECRET, { all: true }, { timestampS: Math.floor(Date.now() / 1000) + 301 });
    expect((await request(app).post("/portal/_purge").set(future.headers).send(future.body)).status).toBe(400);

    const once = signedPurge(SECRET, { all: true });
    expect((await request(app).post("/portal/_purge").set(once.headers).send(once.body)).status).toBe(202);
    const replay = await request(app).post("/portal/_purge").set(once.headers).send(once.body);
    expect(replay.status).toBe(409);
    expect(replay.body.msg).toBe("this webhook-id was already received");
  });

  it("does not exist without PURGE_SECRET", async () => {
    app = createApp(testConfig({ API_BASE_URL: upstream.url }), { renderer: await createProdRenderer() });
    const signed = signedPurge(SECRET, { all: true });
    expect((await request(app).post("/portal/_purge").set(signed.headers).send(signed.body)).status).toBe(404);
    expect((await request(app).get("/portal/_purge")).status).toBe(404);
  });

  it("answers other methods 405 and is never cached", async () => {
    await build();
    const get = await request(app).get("/portal/_purge");
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
    expect(get.headers["cache-control"]).toBe("no-store");
    expect(app.portal.pageCache?.stats()).toMatchObject({ entries: 0, misses: 0 });
  });
});

describe("hostile purge bodies", () => {
  const cases: [string, unknown, string][] = [
    ["not an object", [1, 2], "body must be a JSON object"],
    ["nothing named", {}, 'body name tags or paths to purge, or give "all": true'],
    ["all and tags", { all: true, tags: ["site"] }, 'body give either "all": true or tags and paths, not both'],
    ["all false", { all: false }, "all must be true when given"],
    ["a tag that is not a string", { tags: ["site", 12] }, "tags.1 must be a string"],
    ["tags not a list", { tags: "site" }, "tags must be a list of strings"],
    ["a tag with a comma", { tags: ["a,b"] }, "tags.0 must be printable ASCII without spaces or commas"],
    ["too many tags", { tags: Array.from({ length: 257 }, (_, i) => `t${i}`) }, "tags must hold at most 256 tags"],
    [
      "a path elsewhere",
      { paths: ["https://evil.example/portal/"] },
      "paths.0 must be a path under /portal/ or /api/portal/ (a query may follow, no fragment)",
    ],
    ["an unknown mode", { all: true, mode: "nuke" }, 'mode must be "soft" or "hard"'],
    ["an unknown field", { all: true, purge: "x" }, "body has unknown field(s) purge"],
  ];

  it.each(cases)("refuses %s with 400 and says why", async (_what, body, message) => {
    await build();
    const res = await purge(body);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(message);
  });

  it("refuses a body that is not JSON with 400 and one too large with 413", async () => {
    await build();
    const notJson = await request(app).post("/portal/_purge").set("Authorization", `Bearer ${SECRET}`).send("tags=site");
    expect(notJson.status).toBe(400);
    expect(notJson.body.msg).toBe("body is not valid JSON");
    const huge = {
      tags: Array.from({ length: 200 }, () => "x".repeat(120)),
      paths: Array.from({ length: 60 }, () => `/portal/${"y".repeat(1000)}`),
    };
    const tooLarge = await request(app).post("/portal/_purge").set("Authorization", `Bearer ${SECRET}`).send(huge);
    expect(tooLarge.status).toBe(413);
  });
});
