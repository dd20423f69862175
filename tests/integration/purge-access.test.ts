/**
 * Who may POST /portal/_purge, against a real stand-in upstream: secrets, signatures and
 * bearer tokens, timestamps and replays, the endpoint without PURGE_SECRET, and hostile bodies.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { createProdRenderer } from "../../server/render/prod-renderer.ts";
import { testConfig } from "../support/config.ts";
import {
  adopt,
  app,
  build,
  NEWS_API,
  purge,
  purgeUpstreamForEachTest,
  SECOND_SECRET,
  SECRET,
  upstream,
  warm,
} from "../support/purge-app.ts";
import { newPurgeSecret, signedPurge } from "../support/purge-request.ts";

purgeUpstreamForEachTest();

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
    adopt(createApp(testConfig({ API_BASE_URL: upstream.url }), { renderer: await createProdRenderer() }));
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
