/**
 * An address whose language prefix comes twice or more, on the built site: a 301 to the
 * address with it once, never a page (or a page cache entry) of its own
 * (docs/behaviour.md#languages).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";

let site: BuiltSite;
let metricsUrl: string;

const get = (path: string) => fetch(site.origin + path, { redirect: "manual" });

async function pageEntries(): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = /^portal_cache_entries\{cache="page"\} (\d+)$/m.exec(text);
  if (!line) throw new Error(`no page cache entries in the metrics:\n${text}`);
  return Number(line[1]);
}

/** Asked until the page cache answers it: the render is stored. */
async function cached(path: string): Promise<void> {
  for (;;) {
    const res = await get(path);
    await res.arrayBuffer();
    expect(res.status, path).toBe(200);
    if (res.headers.get("x-page-cache") === "HIT") return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

beforeAll(async () => {
  site = await startBuiltSite({ METRICS_PORT: "0", MISS_RATE_PER_MIN: "0" });
  const port = site.logs
    .map((line) => JSON.parse(line) as { msg?: string; port?: number })
    .find((entry) => entry.msg === "internal listener")?.port;
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
});
afterAll(() => site?.close());

describe("a language prefix repeated", () => {
  const cases: [string, string][] = [
    ["/portal/en/en/index.html", "/portal/en/index.html"],
    ["/portal/en/en/message/news/1", "/portal/en/message/news/1"],
    ["/portal/en/en/message/news/1?utm_source=mail", "/portal/en/message/news/1?utm_source=mail"],
    ["/portal/en/en/en/", "/portal/en/"],
    ["/portal/en/en/", "/portal/en/"],
    ["/portal/en/en/en/about/index.html", "/portal/en/about/index.html"],
    ["/portal/en/en/message/news/rss.xml", "/portal/en/message/news/rss.xml"],
    // Encoded letters are read as the browser's router reads them.
    ["/portal/%65n/en/index.html", "/portal/en/index.html"],
    ["/portal/en/%65n/message/news/1", "/portal/en/message/news/1"],
  ];

  it("answers a 301 to the address with the prefix once, and the page cache keeps nothing for it", async () => {
    for (const page of ["/portal/en/index.html", "/portal/en/message/news/1", "/portal/en/about/index.html"]) await cached(page);
    const before = await pageEntries();
    for (let round = 0; round < 2; round++) {
      for (const [from, to] of cases) {
        const res = await get(from);
        await res.arrayBuffer();
        expect(res.status, from).toBe(301);
        expect(res.headers.get("location"), from).toBe(to);
        expect(res.headers.get("x-page-cache"), from).toBeNull();
      }
    }
    expect(await pageEntries()).toBe(before);
    // Where it leads is the page itself, from the cache.
    expect((await get("/portal/en/index.html")).headers.get("x-page-cache")).toBe("HIT");
  });

  it("reads an encoded separator as no separator, as the browser's router does: no page, the usual redirect home", async () => {
    const before = await pageEntries();
    for (const [from, to] of [
      ["/portal/en%2Fen/index.html", "/portal/index.html"],
      ["/portal/en/en%2Findex.html", "/portal/en/index.html"],
      ["/portal/en%2Fen/message/news/1", "/portal/index.html"],
    ]) {
      const res = await get(from as string);
      expect(res.status, from).toBe(302);
      expect(res.headers.get("location"), from).toBe(to);
    }
    expect(await pageEntries()).toBe(before);
  });
});
