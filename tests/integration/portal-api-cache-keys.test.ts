/**
 * API cache keys against random /api/portal URLs: two requests share a cache entry (or
 * one upstream call in flight) only if they make the same upstream request, whatever
 * their text (encoded separators in values, repeats, empty values, leading zeros, huge
 * numbers, `%2F` in id segments). The stand-in upstream writes the request it received
 * into every answer, so an answer served for the wrong request shows. Each run takes a
 * random URL and a variant of it (tests/support/url-variants.ts) and checks that a server
 * with a warm cache, and one asked both at once, answer each exactly as a server with
 * an empty cache does.
 */
import fc from "fast-check";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { testConfig } from "../support/config.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";
import { type UrlSpace, urlPairArb } from "../support/url-variants.ts";

/** Fixed, so every run tries the same cases; a failure prints the seed and path that replay it. */
const SEED = 1212;
const RUNS = 300;

const DETAIL_PATHS = ["/message/news", "/job/job", "/product/product"];
const ITEM_IDS = Array.from({ length: 12 }, (_, i) => i + 1);
const API_URLS: UrlSpace = {
  bases: ["/api/portal", "/API/Portal"],
  paths: ["/message/news/list", "/message/notice/list", "/plan/milepost/list", "/job/job/list", "/sys/syscfg", "/reader/reader"],
  detailPaths: DETAIL_PATHS,
  idSegments: ["1", "2", "12", "13", "01", "0", "%31", "%31%32", "%2F1", "1%2F2", "list", "abc", "9".repeat(20), ""],
  names: ["pageIndex", "pageMaxCount", "jobTypeIds", "jobAddrIds", "type", "pid", "imgScope"],
  otherNames: ["id", "utm_source", "PageIndex", "page%49ndex"],
};

/** Every answer carries the request the upstream received. */
function echoRoutes(): Record<string, unknown> {
  const echo = (url: URL) => `${url.pathname}${url.search}`;
  const ok = (data: unknown) => ({ body: { code: 0, msg: "ok", data } });
  const paged = (url: URL) => ok({ pageDataList: [{ id: 1, title: echo(url) }], totalCount: 1, totalPageCount: 1 });
  const routes: Record<string, unknown> = {
    "/api/portal/message/news/list": paged,
    "/api/portal/message/notice/list": paged,
    "/api/portal/plan/milepost/list": paged,
    "/api/portal/job/job/list": paged,
    "/api/portal/sys/syscfg": (url: URL) => ok({ themePortal: echo(url) }),
    "/api/portal/reader/reader": (url: URL) => ({ body: { code: 0, msg: "ok", data: 7, echo: echo(url) } }),
  };
  for (const path of DETAIL_PATHS) {
    for (const id of ITEM_IDS) routes[`/api/portal${path}/${id}`] = (url: URL) => ok({ id, title: echo(url) });
  }
  return routes;
}

interface Answer {
  status: number;
  type: string | undefined;
  body: string;
}

let upstream: StandInUpstream;
let warm: PortalApp;
let reference: PortalApp;
let paired: PortalApp;

const answerOf = async (app: PortalApp, url: string): Promise<Answer> => {
  const res = await request(app).get(url);
  return { status: res.status, type: res.headers["content-type"], body: res.text };
};

/** The answer of a server whose cache holds nothing: the one a request gets on its own. */
async function aloneAnswerOf(url: string): Promise<Answer> {
  reference.portal.cache.clear();
  return answerOf(reference, url);
}

beforeAll(async () => {
  upstream = await startStandInUpstream(echoRoutes());
  // One client makes hundreds of misses here: no miss budget.
  const config = testConfig({ API_BASE_URL: upstream.url, MISS_RATE_PER_MIN: "0" });
  warm = createApp(config);
  reference = createApp(config);
  paired = createApp(config);
});

afterAll(async () => {
  for (const app of [warm, reference, paired]) app?.portal.close();
  await upstream?.close();
});

describe("API cache keys of random /api/portal URLs", () => {
  it("are shared only by requests that make the same upstream request, from the cache, the hot path or one call in flight", async () => {
    let served = 0;
    await fc.assert(
      fc.asyncProperty(urlPairArb(API_URLS), async (urls) => {
        const alone = [await aloneAnswerOf(urls[0]), await aloneAnswerOf(urls[1])];
        if (alone.some((a) => a.status === 200)) served++;

        // A warm cache: each URL after the other, twice, so later answers come from the cache and its hot path.
        for (const round of [0, 1]) {
          for (const [i, url] of urls.entries()) {
            expect(await answerOf(warm, url), `${url} (round ${round}) after ${urls[1 - i]}`).toEqual(alone[i]);
          }
        }
        // Both at once on a cold cache: one upstream call is shared only by requests that make it.
        paired.portal.cache.clear();
        const together = await Promise.all(urls.map((url) => answerOf(paired, url)));
        expect(together, `${urls[0]} and ${urls[1]} at once`).toEqual(alone);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // The runs reached answers from the upstream, not only refusals.
    expect(served).toBeGreaterThan(RUNS / 4);
  }, 120_000);
});
