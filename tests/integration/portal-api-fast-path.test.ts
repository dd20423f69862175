/**
 * Fresh /api/portal hits answered before Express runs: the same answer as the app gives, in
 * the coding asked for, with one ETag across codings; stale entries and refusals left to the app.
 */
import { once } from "node:events";
import { createServer, get, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { apiUpstreamForEachTest, app, build, clock, PARTNERS, SYSCFG, settle, upstream } from "../support/api-cache-app.ts";

apiUpstreamForEachTest();

/** The bytes as sent, with no client-side decoding. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}

describe("/api/portal fresh hits before Express", () => {
  /** Headers that belong to one response, or that only the Express path adds (its request id). */
  const perResponse = new Set([
    "date",
    "x-request-id",
    "connection",
    "keep-alive",
    "transfer-encoding",
    "content-length",
    "content-encoding",
  ]);
  const contentHeaders = (headers: Record<string, string>) =>
    Object.fromEntries(Object.entries(headers).filter(([name]) => !perResponse.has(name)));

  /** Asks until the answer comes from the prepared entry (no request id: Express never ran). */
  async function preparedHit(path: string, headers: Record<string, string> = {}) {
    for (let i = 0; i < 50; i++) {
      const res = await request(app).get(path).set(headers);
      if (res.headers["x-request-id"] === undefined) return res;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`${path} was never answered before Express`);
  }

  it("sends the same status, headers and body as the app, without reaching the upstream again", async () => {
    build();
    const list = "/api/portal/message/news/list?pageIndex=0&pageMaxCount=20";
    await request(app).get(list);
    const viaExpress = await request(app).get(list);
    const direct = await preparedHit(list);
    expect(viaExpress.headers["x-cache"]).toBe("HIT");
    expect(direct.status).toBe(200);
    expect(contentHeaders(direct.headers)).toEqual(contentHeaders(viaExpress.headers));
    expect(direct.headers["content-security-policy"]).toContain("object-src 'none'");
    expect(direct.body).toEqual(viaExpress.body);
    expect(upstream.count()).toBe(1);
    expect(app.portal.cache.stats().hits).toBe(2);
  });

  it("sends big answers in the coding asked for, compressed once, and 304 to a matching ETag", async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, logo: `/logo-${i}.svg`, url: `https://partner-${i}.example` }));
    upstream.routes.set(PARTNERS, items);
    build();
    const plain = await request(app).get(PARTNERS);
    expect(plain.headers["x-cache"]).toBe("MISS");
    await preparedHit(PARTNERS);
    const server = createServer(app).listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PARTNERS}`;
      const br = await rawGet(url, { "accept-encoding": "br, gzip" });
      const gzip = await rawGet(url, { "accept-encoding": "gzip" });
      const none = await rawGet(url, { "accept-encoding": "identity" });
      expect([br.headers["content-encoding"], gzip.headers["content-encoding"], none.headers["content-encoding"]]).toEqual([
        "br",
        "gzip",
        undefined,
      ]);
      expect(br.headers.vary).toBe("Accept-Encoding");
      expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(plain.body);
      expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual(plain.body);
      expect(br.body.length).toBeLessThan(none.body.length / 3);
      const revalidated = await rawGet(url, { "if-none-match": String(plain.headers.etag) });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body.length).toBe(0);
    } finally {
      server.close();
    }
    const head = await request(app).head(PARTNERS);
    expect(head.status).toBe(200);
    expect(head.headers["x-request-id"]).toBeUndefined();
    expect(upstream.count(PARTNERS)).toBe(1);
  });

  it("tags the identity, gzip and brotli bodies with one weak ETag, and answers 304 to it from any coding, in a list, or *", async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, logo: `/logo-${i}.svg`, url: `https://partner-${i}.example` }));
    upstream.routes.set(PARTNERS, items);
    build();
    const server = createServer(app).listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PARTNERS}`;
      const codings = ["br", "gzip", "identity"];
      // The miss (through Express), then hits (before it, once prepared).
      const answers = [];
      for (const coding of [...codings, ...codings]) answers.push(await rawGet(url, { "accept-encoding": coding }));
      expect(answers.map((a) => a.headers["content-encoding"] ?? "identity")).toEqual([...codings, ...codings]);
      const tags = answers.map((a) => String(a.headers.etag));
      // A strong tag must differ per coding (RFC 9110 8.8.3); these are one weak tag.
      expect(tags.every((tag) => tag.startsWith('W/"') && tag === tags[0])).toBe(true);
      const etag = tags[0] as string;
      for (const coding of codings) {
        for (const ifNoneMatch of [etag, etag.slice(2), `"other", ${etag}`, `W/"a,b", ${etag.slice(2)}`, "*"]) {
          const revalidated = await rawGet(url, { "accept-encoding": coding, "if-none-match": ifNoneMatch });
          expect([coding, ifNoneMatch, revalidated.status, revalidated.body.length]).toEqual([coding, ifNoneMatch, 304, 0]);
          expect(revalidated.headers.etag).toBe(etag);
        }
        const changed = await rawGet(url, { "accept-encoding": coding, "if-none-match": 'W/"other", "a,b"' });
        expect(changed.status).toBe(200);
      }
    } finally {
      server.close();
    }
    expect(upstream.count(PARTNERS)).toBe(1);
  });

  it("leaves stale entries, refusals and reader counts to the app", async () => {
    build();
    await request(app).get(SYSCFG);
    await preparedHit(SYSCFG);
    clock.now += 1500;
    const stale = await request(app).get(SYSCFG);
    expect(stale.headers["x-cache"]).toBe("STALE");
    expect(stale.headers["x-request-id"]).toBeDefined();
    const refused = await request(app).get("/api/portal/message/news/list?pageIndex=-1");
    expect(refused.status).toBe(400);
    await settle();
    expect(upstream.count(SYSCFG)).toBe(2);
  });
});
