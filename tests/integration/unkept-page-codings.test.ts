/**
 * A page not kept (the page cache off) is compressed once for the client that asked
 * (docs/behaviour.md#compression): in brotli or gzip as its Accept-Encoding takes, with its
 * length, the same page in every coding; a HEAD gets the GET's headers, a current copy a 304.
 * Against the built site with the demo content.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";

const HOME = "/portal/index.html";
let site: BuiltSite;

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The answer as it came over the wire, not decoded. */
function rawGet(path: string, headers: Record<string, string>, method = "GET"): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${site.origin}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  site = await startBuiltSite({ PAGE_CACHE: "off", MISS_RATE_PER_MIN: "0" });
});

afterAll(async () => {
  await site?.close();
});

describe("a page not kept", () => {
  it("is sent in the coding the client takes, whole, with its length", async () => {
    const plain = await rawGet(HOME, {});
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString("utf8")).toContain("</html>");

    const cases = [
      { accept: "gzip, deflate, br", coding: "br", decode: brotliDecompressSync },
      { accept: "gzip", coding: "gzip", decode: gunzipSync },
      { accept: "br;q=0, gzip", coding: "gzip", decode: gunzipSync },
      { accept: "br;q=0.0, gzip;q=0", coding: undefined, decode: (body: Buffer) => body },
    ];
    for (const { accept, coding, decode } of cases) {
      const answer = await rawGet(HOME, { "Accept-Encoding": accept });
      expect(answer.status, accept).toBe(200);
      expect(answer.headers["content-encoding"], accept).toBe(coding);
      expect(answer.headers["content-length"], accept).toBe(String(answer.body.length));
      expect(answer.headers["transfer-encoding"], accept).toBeUndefined();
      expect(answer.headers.vary, accept).toMatch(/Accept-Encoding/i);
      expect(answer.headers.etag, accept).toBe(plain.headers.etag);
      expect(decode(answer.body).equals(plain.body), accept).toBe(true);
      if (coding) expect(answer.body.length, accept).toBeLessThan(plain.body.length / 4);
    }
  });

  it("gives a HEAD the GET's headers and no body, and a current copy a 304", async () => {
    const get = await rawGet(HOME, { "Accept-Encoding": "br" });
    const head = await rawGet(HOME, { "Accept-Encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);

    const current = await rawGet(HOME, { "Accept-Encoding": "br", "If-None-Match": String(get.headers.etag) });
    expect(current.status).toBe(304);
    expect(current.body.length).toBe(0);
  });

  it("compresses a page not found as well, and keeps its status", async () => {
    const missing = await rawGet("/portal/message/news/987654321", { "Accept-Encoding": "br" });
    expect(missing.status).toBe(404);
    expect(missing.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(missing.body).toString("utf8")).toContain("</html>");
  });
});
