/**
 * Bad inputs tried, against the production process on a real socket:
 * - a property-based fuzzer (fast-check) over methods, paths, queries, headers and
 *   bodies: never a 5xx, never a stack trace, never a crash, and never an upstream
 *   request outside the allowlist (every request the stand-in upstream received is a
 *   section 3 call with a normalised query, or a valid reader PUT);
 * - request smuggling on raw sockets (Content-Length with Transfer-Encoding either way,
 *   duplicate and malformed framing headers, bare LF and lone CR line endings, obs-fold):
 *   each answered 400 with exactly one response, the request hidden behind it never
 *   parsed (it never reaches the upstream), and a pipelined pair of valid requests as
 *   the control that two requests on one connection are seen as two.
 */
import { connect } from "node:net";
import fc from "fast-check";
import { API_CALLS, matchCalls, normaliseCallQuery } from "../shared/api-calls.ts";
import { parseReaderBody } from "../shared/reader-body.ts";
import { logFileOf, type RunContext } from "./context.ts";
import { Checks, type SectionResult } from "./report.ts";
import { serverEnv, startServer } from "./server.ts";
import { exchange, leaksInternals } from "./traffic.ts";
import { type RecordedRequest, startControlledUpstream } from "./upstream.ts";

/** Every request the upstream received was one the allowlist permits, with a normalised query. */
export function outsideAllowlist(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter(({ method, url, body }) => {
    const [path = "", search = ""] = url.replace(/^\/api\/portal/, "").split("?");
    if (method === "PUT") {
      try {
        return !(path === "/reader/reader" && parseReaderBody(JSON.parse(body)).ok);
      } catch {
        return true;
      }
    }
    const match = matchCalls(path).find((m) => m.call.method === "GET");
    if (!match || method !== "GET") return true;
    const normalised = normaliseCallQuery(match.call, new URLSearchParams(search));
    return !(normalised.ok && normalised.search === (search ? `?${search}` : ""));
  });
}

const segment = fc.oneof(
  fc.constantFrom(
    "portal",
    "api",
    "message",
    "news",
    "notice",
    "list",
    "list.html",
    "index.html",
    "1",
    "0",
    "-1",
    "01",
    "1e3",
    "9007199254740993",
    "..",
    ".",
    "%2e%2e",
    "%2F",
    "%00",
    "%ff",
    "rss.xml",
    "reader",
    "job",
    "society",
    "school",
    "product",
    "media",
    "assets",
    "x.css",
    "sitemap.xml",
    "healthz",
    "readyz",
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ maxLength: 12, unit: "grapheme" }),
  fc.webSegment(),
);
const randomPathArb = fc
  .tuple(
    fc.constantFrom(
      "/api/portal/",
      "/portal/",
      "/",
      "//",
      "/portal//",
      "/api/portal/message/news/",
      "/api/portal/reader/",
      "/portal/message/news/",
      "/portal/job/society/",
      "/portal/media/",
      "/portal/assets/",
    ),
    fc.array(segment, { maxLength: 5 }),
  )
  .map(([prefix, parts]) => prefix + parts.map((p) => encodeURI(p)).join("/"));
/** Real call and page paths, their id slot filled by any segment, sometimes with more after them. */
const knownPathArb = fc
  .tuple(
    fc.constantFrom(
      ...API_CALLS.map((call) => `/api/portal${call.path}`),
      "/portal/index.html",
      "/portal/message/news/list.html",
      "/portal/message/news/{id}",
      "/portal/message/notice/{id}",
      "/portal/product/{id}",
      "/portal/job/society/index.html",
      "/portal/job/school/{id}",
      "/portal/message/news/rss.xml",
      "/sitemap.xml",
      "/robots.txt",
    ),
    fc.oneof(fc.constantFrom("1", "2", "35", "0", "999999", "01", "1.5"), segment),
    fc.option(segment, { nil: undefined }),
  )
  .map(([path, id, extra]) => path.replace("{id}", encodeURI(id)) + (extra === undefined ? "" : `/${encodeURI(extra)}`));
const pathArb = fc.oneof(randomPathArb, knownPathArb);
const queryArb = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        "id",
        "page",
        "size",
        "pageIndex",
        "pageMaxCount",
        "jobTypeIds",
        "jobAddrIds",
        "type",
        "pid",
        "imgScope",
        "lang",
        "__proto__",
        "constructor",
        "x",
      ),
      fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.integer().map(String),
        fc.constantFrom("", "1,,x", "1e3", "NaN", "-0", "0x10", "１", "1,2,3", "9007199254740992", "en", "zh-CN", "[]", "%00"),
      ),
    ),
    { maxLength: 5 },
  )
  .map((pairs) => (pairs.length ? `?${new URLSearchParams(pairs).toString()}` : ""));
const headerArb = fc.dictionary(
  fc.constantFrom(
    "x-forwarded-for",
    "x-forwarded-host",
    "x-forwarded-proto",
    "x-original-url",
    "x-http-method-override",
    "accept",
    "accept-language",
    "cookie",
    "if-none-match",
    "if-modified-since",
    "accept-encoding",
    "content-type",
    "content-encoding",
    "x-request-id",
    "range",
    "origin",
    "referer",
  ),
  fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ maxLength: 20, unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)) }),
    fc.constantFrom("gzip", "br, gzip", "lang=en", "*", "en", "bytes=0-10", "application/json", "deflate"),
  ),
  { maxKeys: 4 },
);
const bodyArb = fc.option(
  fc.oneof(
    fc.json(),
    fc.string({ maxLength: 200 }),
    fc.string({ minLength: 1500, maxLength: 3000 }),
    fc.constantFrom(
      '{"type":2,"pid":1}',
      '{"type":1,"pid":9007199254740992}',
      '{"type":2,"pid":"1"}',
      '{"__proto__":{"type":2}}',
      "[]",
      "null",
    ),
  ),
  { nil: undefined },
);

interface FuzzFigures {
  tried: number;
  notSent: number;
  byClass: Map<string, number>;
  failure?: string;
}

async function fuzz(origin: string, runs: number, seed: number): Promise<FuzzFigures> {
  const figures: FuzzFigures = { tried: 0, notSent: 0, byClass: new Map() };
  const result = await fc.check(
    fc.asyncProperty(
      fc.constantFrom("GET", "GET", "GET", "HEAD", "PUT", "PUT", "POST", "DELETE", "OPTIONS", "PATCH", "TRACE"),
      pathArb,
      queryArb,
      headerArb,
      bodyArb,
      async (method, path, query, headers, body) => {
        // A connection per request: a failure reproduces from its own input alone.
        const outcome = await exchange(
          origin,
          { method, path: path + query, headers, body: method === "GET" || method === "HEAD" ? undefined : body },
          false,
        );
        if (outcome.error?.startsWith("not sent")) {
          // Node refuses to send it (an invalid path or header value): nothing reached the server.
          figures.notSent++;
          return true;
        }
        figures.tried++;
        if (!outcome.answer) throw new Error(`${method} ${path}${query}: no answer (${outcome.error})`);
        const { status, body: text } = outcome.answer;
        const cls = `${Math.floor(status / 100)}xx`;
        figures.byClass.set(cls, (figures.byClass.get(cls) ?? 0) + 1);
        if (status >= 500) throw new Error(`${method} ${path}${query} answered ${status}: ${text.slice(0, 200)}`);
        if (leaksInternals(text)) throw new Error(`${method} ${path}${query} leaked a stack trace`);
        return true;
      },
    ),
    { numRuns: runs, seed, endOnFailure: false },
  );
  if (result.failed) figures.failure = `seed ${seed}: ${fc.defaultReportMessage(result) ?? "failed"}`.slice(0, 2000);
  return figures;
}

/** Writes raw bytes on a fresh connection and returns everything the server wrote back before closing. */
function rawExchange(port: number, bytes: string): Promise<string> {
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
const hidden = (n: number) => `GET /api/portal/message/news/list?pageIndex=${90_000 + n}&pageMaxCount=77 HTTP/1.1\r\nHost: x\r\n\r\n`;
const PUT = "PUT /api/portal/reader/reader HTTP/1.1\r\nHost: x\r\n";

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

export async function runInputs(ctx: RunContext): Promise<SectionResult> {
  const checks = new Checks();
  const runs = ctx.short ? 2000 : 10_000;
  const upstream = await startControlledUpstream(ctx.site, ctx.workDir);
  const logFile = logFileOf(ctx, "inputs");
  const server = await startServer({
    name: "inputs server",
    logFile,
    cpus: ctx.serverCpus,
    env: serverEnv({ API_BASE_URL: upstream.url, PORTAL_CLASSIFY: upstream.classifyJson, READER_RATE_PER_MIN: "100000" }),
  });
  try {
    upstream.record = true;
    const seed = Date.now() % 2 ** 31;
    const started = Date.now();
    const figures = await fuzz(server.origin, runs, seed);
    const fuzzS = (Date.now() - started) / 1000;
    ctx.log(`  inputs: ${figures.tried} fuzzed requests in ${Math.round(fuzzS)} s`);
    checks.add(`fuzzer: never a 5xx, a stack trace or a lost answer (${runs} cases, seed ${seed})`, !figures.failure, figures.failure);
    checks.add("fuzzer: most cases reached the server", figures.tried >= runs * 0.8, `${figures.tried} of ${runs}`);
    const outside = outsideAllowlist(upstream.requests);
    checks.add(
      "fuzzer: never an upstream request outside the allowlist",
      outside.length === 0,
      outside
        .slice(0, 5)
        .map((r) => `${r.method} ${r.url} ${r.body.slice(0, 80)}`)
        .join("\n"),
    );
    const upstreamCount = upstream.requests.length;
    checks.add("fuzzer: the process never crashed", server.alive());

    // Smuggling: each attempt on its own connection; the hidden request must never be parsed.
    let rejected = 0;
    for (const [index, [name, bytes]] of SMUGGLING.entries()) {
      upstream.clearRecords();
      const reply = await rawExchange(server.port, bytes(index));
      const statuses = reply.match(/HTTP\/1\.[01] \d{3}/g) ?? [];
      const reached = upstream.requests.some((r) => r.url.includes(`pageIndex=${90_000 + index}`));
      const ok = /^HTTP\/1\.1 400 /.test(reply) && statuses.length === 1 && !reached;
      if (ok) rejected++;
      checks.add(
        `smuggling: ${name} is rejected, no second request parsed`,
        ok,
        `${statuses.length} responses (${statuses.join(", ") || "none"})${reached ? ", the hidden request reached the upstream" : ""}`,
      );
    }
    const control = await rawExchange(
      server.port,
      "GET /portal/healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /portal/healthz HTTP/1.1\r\nHost: x\r\n\r\n",
    );
    checks.add("smuggling control: two valid pipelined requests get two answers", (control.match(/HTTP\/1\.1 200 /g) ?? []).length === 2);
    const health = await exchange(server.origin, { path: "/portal/healthz" }, false);
    checks.add("the process answers after it all", server.alive() && health.answer?.status === 200, health.error);

    return {
      section: "bad inputs tried",
      headline: `bad inputs tried: ${figures.tried} fuzzed requests (${figures.failure ? "FAILED" : "0 answered 5xx"}, ${outside.length} upstream requests outside the allowlist) and ${SMUGGLING.length} smuggling attempts (${rejected} rejected)`,
      checks: checks.list,
      figures: [
        `${figures.tried} fuzzed requests in ${Math.round(fuzzS)} s (${[...figures.byClass]
          .sort()
          .map(([c, n]) => `${c} ${n}`)
          .join(", ")}; 5xx 0 required)`,
        ...(figures.notSent ? [`${figures.notSent} more refused by Node's client before sending`] : []),
        `${upstreamCount} upstream requests, ${outside.length} outside the allowlist`,
        `smuggling: ${rejected}/${SMUGGLING.length} attempts rejected with one 400 and nothing parsed behind it`,
      ],
      logs: [logFile],
    };
  } finally {
    await server.stop();
    await upstream.close();
  }
}
