/**
 * Request smuggling on raw sockets, for the hostile-input tests and the reliability run alike: each attempt must
 * be answered with exactly one 400, and the request hidden behind it never parsed nor sent upstream.
 */
import { connect } from "node:net";
import type { UpstreamRequest } from "./hostile-requests.ts";

/** Writes raw bytes on a fresh connection and returns everything the server wrote back before closing. */
export function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(bytes));
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      text += chunk;
    });
    socket.on("close", () => resolve(text));
    socket.on("error", () => resolve(text));
    socket.setTimeout(3000, () => socket.destroy());
  });
}

/** The hidden request: a key nobody asks for, so reaching the upstream would show in its records. */
const hiddenKey = (n: number) => `pageIndex=${90_000 + n}`;
const hidden = (n: number) => `GET /api/portal/message/news/list?${hiddenKey(n)}&pageMaxCount=77 HTTP/1.1\r\nHost: x\r\n\r\n`;
const PUT = "PUT /api/portal/reader/reader HTTP/1.1\r\nHost: x\r\n";

/** Each attempt's name and its bytes; `n` (the attempt's index) tells its hidden request apart. */
export const SMUGGLING: [string, (n: number) => string][] = [
  ["Content-Length then Transfer-Encoding", (n) => `${PUT}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${hidden(n)}`],
  ["Transfer-Encoding then Content-Length", (n) => `${PUT}Transfer-Encoding: chunked\r\nContent-Length: 48\r\n\r\n0\r\n\r\n${hidden(n)}`],
  [
    "both on a GET",
    (n) => `GET /portal/index.html HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${hidden(n)}`,
  ],
  ["duplicate Content-Length, different values", (n) => `${PUT}Content-Length: 0\r\nContent-Length: 70\r\n\r\n${hidden(n)}`],
  ["duplicate Content-Length, same value", (n) => `${PUT}Content-Length: 0\r\nContent-Length: 0\r\n\r\n${hidden(n)}`],
  ["Content-Length as a list", (n) => `${PUT}Content-Length: 0, 70\r\n\r\n${hidden(n)}`],
  ["Content-Length with a sign", (n) => `${PUT}Content-Length: +0\r\n\r\n${hidden(n)}`],
  ["Content-Length past 2^64", (n) => `${PUT}Content-Length: 99999999999999999999\r\n\r\n${hidden(n)}`],
  ["duplicate Transfer-Encoding", (n) => `${PUT}Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n${hidden(n)}`],
  ["Transfer-Encoding whose last coding is not chunked", (n) => `${PUT}Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n${hidden(n)}`],
  [
    "Transfer-Encoding with a space before the colon",
    (n) => `${PUT}Transfer-Encoding : chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n${hidden(n)}`,
  ],
  [
    "Transfer-Encoding: xchunked with Content-Length",
    (n) => `${PUT}Transfer-Encoding: xchunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n${hidden(n)}`,
  ],
  [
    "Transfer-Encoding folded onto the next line",
    (n) => `${PUT}Transfer-Encoding:\r\n chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n${hidden(n)}`,
  ],
  [
    "Transfer-Encoding on HTTP/1.0",
    (n) =>
      `PUT /api/portal/reader/reader HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n${hidden(n)}`,
  ],
  [
    "bare LF line endings",
    (n) => `PUT /api/portal/reader/reader HTTP/1.1\nHost: x\nContent-Length: 0\nTransfer-Encoding: chunked\n\n0\n\n${hidden(n)}`,
  ],
  [
    "bare LF line endings, Content-Length only",
    (n) => `PUT /api/portal/reader/reader HTTP/1.1\nHost: x\nContent-Length: 0\n\n${hidden(n)}`,
  ],
  ["bare LF after the chunk size", (n) => `${PUT}Transfer-Encoding: chunked\r\n\r\n0\n\r\n${hidden(n)}`],
  ["lone CR in a chunk extension", (n) => `${PUT}Transfer-Encoding: chunked\r\n\r\n0;a\rb\r\n\r\n${hidden(n)}`],
  ["lone CR ending a header line", (n) => `${PUT}Content-Length: 0\r\rX: y\r\n\r\n${hidden(n)}`],
  ["a space inside the header name", (n) => `${PUT}Content-Length : 0\r\n\r\n${hidden(n)}`],
  ["a NUL byte in a header value", (n) => `${PUT}X-A: a\0b\r\nContent-Length: 0\r\n\r\n${hidden(n)}`],
];

export interface SmugglingVerdict {
  ok: boolean;
  /** The status lines the server wrote. */
  statuses: string[];
  /** The hidden request reached the upstream. */
  reached: boolean;
}

/** Attempt `n` is rejected when the server wrote one 400 and nothing else, and its hidden request never reached the upstream. */
export function judgeSmuggling(n: number, reply: string, upstreamRequests: UpstreamRequest[]): SmugglingVerdict {
  const statuses = reply.match(/HTTP\/1\.[01] \d{3}/g) ?? [];
  const reached = upstreamRequests.some((r) => r.url.includes(hiddenKey(n)));
  return { ok: /^HTTP\/1\.1 400 /.test(reply) && statuses.length === 1 && !reached, statuses, reached };
}
