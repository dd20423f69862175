/**
 * Hostile requests and how their answers are judged, for the hostile-input tests (the
 * app in process) and the reliability run (the production process) alike: fuzzed
 * methods, paths, queries, headers and bodies, which may never get a 5xx or a stack
 * trace nor make the server ask its upstream for anything outside the allowlist.
 * Request smuggling on raw sockets is in request-smuggling.ts.
 */
import fc from "fast-check";
import { API_CALLS, matchCalls, normaliseCallQuery } from "../shared/api-calls.ts";
import { parseReaderBody } from "../shared/reader-body.ts";

export interface HostileRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface UpstreamRequest {
  method: string;
  url: string;
  body: string;
}

/** A stack frame or an internal address in an answer a visitor sees. */
export function leaksInternals(body: string, internal: string[] = []): boolean {
  return /\bat .+\.(ts|js|mjs):\d+/.test(body) || internal.some((needle) => needle && body.includes(needle));
}

/** What is wrong with the answer to a fuzzed request, if anything. */
export function answerFault(status: number, body: string): string | undefined {
  if (status >= 500) return `answered ${status}: ${body.slice(0, 200)}`;
  if (leaksInternals(body)) return "leaked a stack trace";
  return undefined;
}

/** The upstream requests the allowlist does not permit: a call of the call table with a normalised query, or a valid reader PUT. */
export function outsideAllowlist<T extends UpstreamRequest>(requests: T[]): T[] {
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

export const hostileRequestArb: fc.Arbitrary<HostileRequest> = fc
  .tuple(
    fc.constantFrom("GET", "GET", "GET", "HEAD", "PUT", "PUT", "POST", "DELETE", "OPTIONS", "PATCH", "TRACE"),
    fc.oneof(randomPathArb, knownPathArb),
    queryArb,
    headerArb,
    bodyArb,
  )
  .map(([method, path, query, headers, body]) => ({
    method,
    path: path + query,
    headers,
    body: method === "GET" || method === "HEAD" ? undefined : body,
  }));

// The hostile-input tests take the smuggling attempts from here too, beside the fuzzed requests.
export { judgeSmuggling, rawExchange, SMUGGLING, type SmugglingVerdict } from "./request-smuggling.ts";
