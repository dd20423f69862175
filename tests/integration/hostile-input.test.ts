/**
 * Hostile input against the built site (started as `npm start` starts it) on a real
 * socket: a property-based fuzzer over methods, paths, queries, headers and bodies (never
 * a 5xx, never a crash, never an upstream request outside the allowlist), request
 * smuggling on raw sockets, and cache poisoning through headers. The fuzzed requests, the
 * smuggling attempts and their judgement are the reliability run's (harness/hostile-requests.ts).
 */
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerFault,
  hostileRequestArb,
  judgeSmuggling,
  outsideAllowlist,
  rawExchange,
  SMUGGLING,
} from "../../harness/hostile-requests.ts";
import { createApp } from "../../server/app.ts";
import { createProdRenderer } from "../../server/render/prod-renderer.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { testConfig } from "../support/config.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

let upstream: StandInUpstream;
let site: BuiltSite;
let port: number;
/** One client sends every fuzzed request: no limit, so each one reaches the code it aims at instead of a 429. */
const UNLIMITED = { READER_RATE_PER_MIN: "100000", MISS_RATE_PER_MIN: "0" };

beforeAll(async () => {
  const message = { id: 1, title: "t", brief: "b", img: "", dateTime: "20240101000000", detail: "<p>d</p>" };
  upstream = await startStandInUpstream({
    "/api/portal/sys/syscfg": { themePortal: "1,1" },
    "/api/portal/sys/sysauthor": { name: "N", fname: "F" },
    "/api/portal/sys/menu/list": [],
    "/api/portal/message/news/list": { pageDataList: [message], totalCount: 1, totalPageCount: 1 },
    "/api/portal/message/news/1": message,
    // Every call a feed or the sitemap needs: a 5xx may only ever come from what the fuzzer sent.
    "/api/portal/message/notice/list": { pageDataList: [message], totalCount: 1, totalPageCount: 1 },
    "/api/portal/message/notice/1": message,
    "/api/portal/reader/reader": 3,
  });
  site = await startBuiltSite({ API_BASE_URL: upstream.url, ...UNLIMITED });
  port = Number(new URL(site.origin).port);
});

afterAll(async () => {
  await site?.close();
  await upstream.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(method: string, path: string, headers: Record<string, string>, body?: string, to = port): Promise<Answer | undefined> {
  return new Promise((resolve, reject) => {
    let req: ReturnType<typeof httpRequest>;
    try {
      // A connection per request, so a failure reproduces from its own input alone (and because
      // Node's client sends a DELETE or OPTIONS body without framing, which would corrupt a reused connection).
      req = httpRequest({ host: "127.0.0.1", port: to, method, path, headers, agent: false }, (res) => {
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

describe("fuzzing the app", () => {
  it("never answers 5xx, never crashes, and never asks the upstream for anything outside the allowlist", async () => {
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(hostileRequestArb, async ({ method, path, headers, body }) => {
        const answer = await send(method, path, headers, body);
        if (!answer) return true;
        tried++;
        const fault = answerFault(answer.status, answer.body);
        if (fault) throw new Error(`${method} ${path} ${fault}`);
        return true;
      }),
      { numRuns: 2500 },
    );
    expect(tried).toBeGreaterThan(2000);
    expect(outsideAllowlist(upstream.requests)).toEqual([]);
    expect((await send("GET", "/portal/healthz", {}))?.status).toBe(200);
  });
});

describe("request smuggling", () => {
  it.each(SMUGGLING.map(([name, bytes], n) => [name, n, bytes] as const))(
    "rejects %s and parses no second request",
    async (_name, n, bytes) => {
      const before = upstream.requests.length;
      const reply = await rawExchange(port, bytes(n));
      const verdict = judgeSmuggling(n, reply, upstream.requests.slice(before));
      expect(
        verdict.ok,
        `${verdict.statuses.join(", ") || "no answer"}${verdict.reached ? ", the hidden request reached the upstream" : ""}`,
      ).toBe(true);
    },
  );
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
    // Counted in the page cache itself: the app in the test's process, with the production renderer.
    const app = createApp(testConfig({ API_BASE_URL: upstream.url, ...UNLIMITED }), { renderer: await createProdRenderer() });
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const before = app.portal.pageCache?.stats().entries;
      for (const path of ["/portal/message/news/1/x.css", "/portal/message/news/1/..%2Fx.js", "/portal/index.html/style.css"]) {
        const answer = await send("GET", path, {}, undefined, (server.address() as AddressInfo).port);
        expect(answer?.status, path).toBe(302);
        expect(answer?.headers["cache-control"], path).toBe("no-store");
      }
      expect(app.portal.pageCache?.stats().entries).toBe(before);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      app.portal.close();
    }
  });
});
