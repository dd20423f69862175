/**
 * Hostile input against the whole app on a real socket: a property-based fuzzer over
 * methods, paths, queries, headers and bodies (never a 5xx, never a crash, never an
 * upstream request outside the allowlist), request smuggling on raw sockets, and cache
 * poisoning through headers.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { matchCalls, normaliseCallQuery } from "../../shared/api-calls.ts";
import { parseReaderBody } from "../../shared/reader-body.ts";
import { testConfig } from "../support/config.ts";
import { createSourceRenderer } from "../support/source-renderer.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

let upstream: StandInUpstream;
let app: PortalApp;
let server: Server;
let port: number;

beforeAll(async () => {
  const message = { id: 1, title: "t", brief: "b", img: "", dateTime: "20240101000000", detail: "<p>d</p>" };
  upstream = await startStandInUpstream({
    "/api/portal/sys/syscfg": { themePortal: "1,1" },
    "/api/portal/sys/sysauthor": { name: "N", fname: "F" },
    "/api/portal/sys/menu/list": [],
    "/api/portal/message/news/list": { pageDataList: [message], totalCount: 1, totalPageCount: 1 },
    "/api/portal/message/news/1": message,
    "/api/portal/reader/reader": 3,
  });
  app = createApp(testConfig({ API_BASE_URL: upstream.url, READER_RATE_PER_MIN: "100000" }), { renderer: await createSourceRenderer() });
  server = createServer(app.portal.handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  app.portal.close();
  await upstream.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer | undefined> {
  return new Promise((resolve, reject) => {
    let req: ReturnType<typeof httpRequest>;
    try {
      // A connection per request, so a failure reproduces from its own input alone (and because
      // Node's client sends a DELETE or OPTIONS body without framing, which would corrupt a reused connection).
      req = httpRequest({ host: "127.0.0.1", port, method, path, headers, agent: false }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
    } catch {
      // Node itself refuses to send it (an invalid method, path or header): nothing reached us.
      resolve(undefined);
      return;
    }
    req.on("error", reject);
    req.end(body);
  });
}

/** Every request the upstream received was one the allowlist permits, with a normalised query. */
function upstreamRequestsAllowed(): boolean {
  return upstream.requests.every(({ method, url, body }) => {
    const [path = "", search = ""] = url.replace(/^\/api\/portal/, "").split("?");
    if (method === "PUT") return path === "/reader/reader" && parseReaderBody(JSON.parse(body)).ok;
    const match = matchCalls(path).find((m) => m.call.method === "GET");
    if (!match || method !== "GET") return false;
    const normalised = normaliseCallQuery(match.call, new URLSearchParams(search));
    return normalised.ok && normalised.search === (search ? `?${search}` : "");
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
    "9007199254740993",
    "..",
    ".",
    "%2e%2e",
    "%2F",
    "rss.xml",
    "reader",
    "job",
    "society",
    "x.css",
  ),
  fc.string({ maxLength: 12 }),
  fc.webSegment(),
);
const pathArb = fc
  .tuple(
    fc.constantFrom("/api/portal/", "/portal/", "/", "//", "/portal//", "/api/portal/message/news/"),
    fc.array(segment, { maxLength: 5 }),
  )
  .map(([prefix, parts]) => prefix + parts.map((p) => encodeURI(p)).join("/"));
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
        "x",
      ),
      fc.oneof(fc.string({ maxLength: 20 }), fc.integer().map(String), fc.constantFrom("", "1,,x", "1e3", "NaN", "-0", "0x10", "１")),
    ),
    { maxLength: 5 },
  )
  .map((pairs) => (pairs.length ? `?${new URLSearchParams(pairs).toString()}` : ""));
const headerArb = fc.dictionary(
  fc.constantFrom(
    "x-forwarded-for",
    "x-forwarded-host",
    "accept-language",
    "cookie",
    "if-none-match",
    "accept-encoding",
    "content-type",
    "x-request-id",
    "range",
  ),
  fc.string({ maxLength: 40 }),
  { maxKeys: 4 },
);
const bodyArb = fc.option(
  fc.oneof(
    fc.json(),
    fc.string({ maxLength: 200 }),
    fc.constantFrom('{"type":2,"pid":1}', '{"type":1,"pid":9007199254740992}', "[]", "null"),
  ),
  { nil: undefined },
);

describe("fuzzing the app", () => {
  it("never answers 5xx, never crashes, and never asks the upstream for anything outside the allowlist", async () => {
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "GET", "GET", "HEAD", "PUT", "POST", "DELETE", "OPTIONS", "PATCH", "TRACE"),
        pathArb,
        queryArb,
        headerArb,
        bodyArb,
        async (method, path, query, headers, body) => {
          const answer = await send(method, path + query, headers, method === "GET" || method === "HEAD" ? undefined : body);
          if (!answer) return true;
          tried++;
          if (answer.status >= 500) throw new Error(`${method} ${path}${query} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
          if (/at .+\.(ts|js):\d+/.test(answer.body)) throw new Error(`${method} ${path}${query} leaked a stack trace`);
          return true;
        },
      ),
      { numRuns: 2500 },
    );
    expect(tried).toBeGreaterThan(2000);
    expect(upstreamRequestsAllowed()).toBe(true);
    expect((await send("GET", "/portal/healthz", {}))?.status).toBe(200);
  });
});

/** Writes raw bytes on a fresh connection and returns everything the server wrote back before closing. */
function rawExchange(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(bytes));
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      text += chunk;
    });
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
    socket.setTimeout(3000, () => socket.destroy());
  });
}

describe("request smuggling", () => {
  const smuggled = "GET /api/portal/sys/syscfg?imgScope=7 HTTP/1.1\r\nHost: x\r\n\r\n";
  it.each([
    [
      "both Content-Length and Transfer-Encoding",
      `PUT /api/portal/reader/reader HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled}`,
    ],
    [
      "duplicate Content-Length",
      `PUT /api/portal/reader/reader HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 70\r\n\r\n${smuggled}`,
    ],
    [
      "a Transfer-Encoding whose last coding is not chunked",
      `PUT /api/portal/reader/reader HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n${smuggled}`,
    ],
    [
      "an obfuscated Transfer-Encoding",
      `PUT /api/portal/reader/reader HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n${smuggled}`,
    ],
    [
      "bare LF line endings",
      `PUT /api/portal/reader/reader HTTP/1.1\nHost: x\nContent-Length: 0\nTransfer-Encoding: chunked\n\n0\n\n${smuggled}`,
    ],
  ])("rejects %s and parses no second request", async (_name, bytes) => {
    const before = upstream.requests.length;
    const reply = await rawExchange(bytes);
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply.match(/HTTP\/1\.1 \d{3}/g)).toHaveLength(1);
    expect(upstream.requests.slice(before).some((r) => r.url.includes("imgScope=7"))).toBe(false);
  });
});

describe("cache poisoning and deception", () => {
  it("lets no request header change what another client receives", async () => {
    const hostile = {
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "http",
      "x-original-url": "/admin",
      "x-rewrite-url": "/admin",
      "accept-language": "en",
      forwarded: "host=evil.example",
    };
    for (const path of [
      "/portal/message/news/1",
      "/portal/message/news/list.html",
      "/api/portal/message/news/1",
      "/robots.txt",
      "/sitemap.xml",
    ]) {
      const poisoned = await send("GET", path, hostile);
      const clean = await send("GET", path, {});
      expect(clean?.body, path).toBe(poisoned?.body);
      expect(clean?.body, path).not.toContain("evil.example");
    }
  });

  it("never stores a page under a static-looking key", async () => {
    const before = app.portal.pageCache?.stats().entries;
    for (const path of ["/portal/message/news/1/x.css", "/portal/message/news/1/..%2Fx.js", "/portal/index.html/style.css"]) {
      const answer = await send("GET", path, {});
      expect(answer?.status, path).toBe(302);
      expect(answer?.headers["cache-control"], path).toBe("no-store");
    }
    expect(app.portal.pageCache?.stats().entries).toBe(before);
  });
});
