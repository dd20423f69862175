/**
 * Answers kept in a cache hold memory of their own: a small body (or a small compressed
 * form of a large one) cut out of Node's shared 8 kB slabs would keep its whole slab alive
 * for as long as the cache keeps the answer, bytes no cache bound counts.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  compressFor,
  keepCompressedOnly,
  ownBytes,
  type PreparedAnswer,
  prepareAnswer,
  sendPrepared,
} from "../../server/cache/prepared-answer.ts";

const ownsItsMemory = (bytes: Buffer) => bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length;

describe("a prepared answer", () => {
  it("holds a small body in memory of its own, not in a shared slab", async () => {
    const body = Buffer.from('{"code":0,"data":[]}');
    expect(ownsItsMemory(body)).toBe(false);
    const answer = await prepareAnswer(200, body, '"e"', [["Content-Type", "application/json"]]);
    expect(ownsItsMemory(answer.identity?.body as Buffer)).toBe(true);
    expect(answer.identity?.body.equals(body)).toBe(true);
  });

  it("holds the small compressed forms of a large body in memory of their own", async () => {
    const body = Buffer.from("中文内容 ".repeat(2000));
    const answer = await prepareAnswer(200, body, '"e"', [["Content-Type", "text/html"]]);
    compressFor(answer, "gzip, br");
    compressFor(answer, "gzip");
    for (const variant of [answer.identity, answer.gzip, answer.br]) expect(variant && ownsItsMemory(variant.body)).toBe(true);
    expect(answer.gzip && gunzipSync(answer.gzip.body).equals(body)).toBe(true);
  });

  it("is compressed only in the codings clients take, each once, within the bytes it was counted for", async () => {
    const body = Buffer.from("<p>中文内容</p> ".repeat(2000));
    const answer = await prepareAnswer(200, body, '"e"', [["Content-Type", "text/html"]]);
    expect([answer.gzip, answer.br]).toEqual([undefined, undefined]);
    compressFor(answer, undefined);
    compressFor(answer, "identity");
    expect([answer.gzip, answer.br]).toEqual([undefined, undefined]);
    compressFor(answer, "gzip, deflate, br");
    expect(answer.gzip).toBeUndefined();
    const br = answer.br?.body as Buffer;
    expect(brotliDecompressSync(br).equals(body)).toBe(true);
    compressFor(answer, "br");
    expect(answer.br?.body).toBe(br);
    compressFor(answer, "gzip;q=1, br;q=0");
    expect(answer.gzip && gunzipSync(answer.gzip.body).equals(body)).toBe(true);
    expect(answer.bytes).toBeGreaterThanOrEqual(body.length + br.length + (answer.gzip?.body.length ?? 0));
  });

  it("is sent as it is once a coding does not fit the bytes it was counted for", async () => {
    const body = randomBytes(20_000);
    const answer = await prepareAnswer(200, body, '"e"', [["Content-Type", "application/octet-stream"]]);
    const bytes = answer.bytes;
    compressFor(answer, "br");
    compressFor(answer, "gzip");
    expect([answer.gzip, answer.br, answer.later]).toEqual([undefined, undefined, undefined]);
    expect(answer.bytes).toBe(bytes);
  });

  it("keeps sending its brotli form to brotli clients once the gzip form did not fit, and fits both in a larger reserve", async () => {
    const body = Buffer.from(Array.from({ length: 600 }, (_, i) => `<item>新闻 ${i * 7919} 内容</item>`).join(""));
    const tight = await prepareAnswer(200, body, '"e"', [["Content-Type", "application/rss+xml"]], "full", 0.2);
    compressFor(tight, "br");
    const br = tight.br?.body as Buffer;
    expect(br.length).toBeLessThan(body.length * 0.2);
    compressFor(tight, "gzip");
    expect([tight.gzip, tight.later]).toEqual([undefined, undefined]);
    const server = http.createServer((req, res) => sendPrepared(req, res, tight, []));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const sent = await new Promise<{ coding?: string; body: Buffer }>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, headers: { "Accept-Encoding": "gzip, br" } }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => resolve({ coding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
          })
          .on("error", reject);
      });
      expect(sent.coding).toBe("br");
      expect(sent.body.equals(br)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const roomy = await prepareAnswer(200, body, '"e"', [["Content-Type", "application/rss+xml"]], "full", 1);
    compressFor(roomy, "br");
    compressFor(roomy, "gzip");
    expect(roomy.gzip && gunzipSync(roomy.gzip.body).equals(body)).toBe(true);
    expect(roomy.br && brotliDecompressSync(roomy.br.body).equals(body)).toBe(true);
  });

  it("kept compressed only, sends every client the same page: as it is, in brotli, in gzip, and to HEAD", async () => {
    const body = Buffer.from("<p>中文内容 news</p> ".repeat(2000));
    const answer = await prepareAnswer(200, body, '"e"', [["Content-Type", "text/html; charset=utf-8"]]);
    const counted = answer.bytes;
    compressFor(answer, "gzip, deflate, br");
    keepCompressedOnly(answer);
    // Only the brotli form is held; the bound still counts the page as before.
    expect([answer.identity, answer.gzip, answer.br === undefined]).toEqual([undefined, undefined, false]);
    expect(answer.bytes).toBe(counted);
    const server = http.createServer((req, res) => sendPrepared(req, res, answer, []));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const fetched = (method: string, acceptEncoding?: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
        const headers = acceptEncoding ? { "accept-encoding": acceptEncoding } : {};
        http
          .request({ host: "127.0.0.1", port, method, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
          })
          .on("error", reject)
          .end();
      });
    try {
      const gzip = await fetched("GET", "gzip");
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gzip.bytes).equals(body)).toBe(true);
      const head = await fetched("HEAD");
      expect(head.headers["content-length"]).toBe(String(body.length));
      const plain = await fetched("GET");
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.bytes.equals(body)).toBe(true);
      const br = await fetched("GET", "br");
      expect(brotliDecompressSync(br.bytes).equals(body)).toBe(true);
      expect(answer.bytes).toBe(counted);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("holds the headers answers have alike once for all of them, and sends every header as given, in order", async () => {
    const common: [string, string][] = [
      ["Content-Type", "application/json; charset=utf-8"],
      ["X-Content-Type-Options", "nosniff"],
    ];
    const [news, notice] = await Promise.all(
      ["news,news:3", "notice,notice:4"].map((tags) =>
        prepareAnswer(200, Buffer.from(`{"code":0,"tags":"${tags}"}`), `W/"${tags}"`, [
          ...common,
          ["Cache-Tag", tags],
          ["Surrogate-Key", tags.replace(",", " ")],
        ]),
      ),
    );
    expect(news?.shared).toBe(notice?.shared);
    const server = http.createServer((req, res) => sendPrepared(req, res, news as PreparedAnswer, ["X-Cache", "HIT"]));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const names = await new Promise<string[]>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port }, (res) => {
            res.resume();
            resolve(res.rawHeaders.filter((_, i) => i % 2 === 0));
          })
          .on("error", reject);
      });
      expect(names.slice(0, 7)).toEqual([
        "Content-Type",
        "X-Content-Type-Options",
        "Cache-Tag",
        "Surrogate-Key",
        "ETag",
        "Content-Length",
        "X-Cache",
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("keeps a body that already owns its memory as it is", () => {
    const body = Buffer.alloc(10_000, 1);
    expect(ownBytes(body)).toBe(body);
  });
});
