/**
 * REDIRECTS_FILE on the built server as `npm start` serves it: the answers and their headers, 410 as the site's
 * not-found page, what is never redirected, the open-redirect tricks, the miss budget and the upstream left alone,
 * and the file read again on a change (a broken one refused, the rules in force kept). docs/redirects.md.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { refusedStart } from "../support/server-process.ts";

const RULES = [
  "from,to,status",
  "/about-us.html,/portal/about/index.html,",
  "/news/:id.html,/portal/message/news/:id,",
  "/plus/view.php?aid=:id,/portal/message/news/:id,",
  "/temp.html,/portal/contact.html,302",
  "/moved.html,/portal/contact.html,307",
  "/perm.html,/portal/contact.html,308",
  "/gone.html,,410",
  "/en/gone.html,,410",
  "/portal/en/old.html,,410",
  "/portal/ar/old.html,,410",
  "/portal/about/member/index.html,/portal/about/index.html,",
  "/anything-old,/portal/contact.html,",
  "/api/portal/*,/portal/index.html,",
  "/portal/_img,/portal/index.html,",
  "/robots.txt,/portal/index.html,",
  "/n/:v,/:v,",
  "/r/*,/*,",
  "/q?u=:u,/portal/search.html?q=:u,",
  "/shop/*,https://shop.example.com/*,",
  "/chain-a,/chain-b,",
  "/chain-b,/chain-c,",
  "/chain-c,/portal/contact.html,",
].join("\n");

let dir: string;
let file: string;
let site: BuiltSite;
let metricsPort: number | undefined;

/** Without following redirects, on a connection of its own. */
function send(url: string, method = "GET"): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .request(`${site.origin}${url}`, { method, agent: false }, (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      })
      .on("error", reject)
      .end();
  });
}

async function metrics(): Promise<string> {
  return (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
}

const figure = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)`, "m").exec(text)?.[1] ?? Number.NaN);
const sumOf = (text: string, name: string) =>
  [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+(?:\\.\\d+)?)`, "gm"))].reduce((sum, m) => sum + Number(m[1]), 0);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "portal-redirects-"));
  file = path.join(dir, "rules.csv");
  await writeFile(file, RULES);
  site = await startBuiltSite({ REDIRECTS_FILE: file, METRICS_PORT: "0", MISS_RATE_PER_MIN: "60", PORTAL_LANGS: "zh-CN,en,ar" });
  metricsPort = site.logs
    .map((line) => (line.startsWith("{") ? (JSON.parse(line) as { msg?: string; port?: number }) : {}))
    .find((entry) => entry.msg === "internal listener")?.port;
  // The search index's first build reads the content API in the background: upstream calls no redirect makes.
  await vi.waitFor(() => expect(site?.logs.some((line) => line.includes('"msg":"search index built"'))).toBe(true), {
    timeout: 60_000,
    interval: 100,
  });
});

afterAll(async () => {
  await site?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("410: gone", () => {
  it("answers the site's not-found page with 410, noindex and no-store", async () => {
    const res = await send("/gone.html");
    expect(res.status).toBe(410);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-robots-tag"]).toBe("noindex");
    expect(res.text).toContain('<meta name="robots" content="noindex">');
    expect(res.text).toContain('<html lang="zh-CN"');
    expect(res.headers.location).toBeUndefined();
  });

  it("in English under /portal/en/", async () => {
    const res = await send("/portal/en/old.html");
    expect(res.status).toBe(410);
    expect(res.text).toContain('<html lang="en"');
  });

  it("in Arabic under /portal/ar/, right to left", async () => {
    const res = await send("/portal/ar/old.html");
    expect(res.status).toBe(410);
    expect(res.text).toContain('<html lang="ar" dir="rtl"');
  });
});

describe("redirect answers", () => {
  it("sends an old address to its Portal address with 301, cacheable for an hour, and keeps the query", async () => {
    const res = await send("/about-us.html?utm_source=mail");
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe("/portal/about/index.html?utm_source=mail");
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.text).toBe("");
  });

  it("fills patterns from the path and from the query, dropping a matched query", async () => {
    expect((await send("/news/12.html")).headers.location).toBe("/portal/message/news/12");
    const res = await send("/plus/view.php?aid=34&x=1");
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe("/portal/message/news/34");
    expect((await send("/plus/view.php?aid=1&aid=2")).status).toBe(302); // not a rule's: the catch-all's
  });

  it("answers 302 and 307 with no-store, 308 cacheable", async () => {
    for (const [url, status, cache] of [
      ["/temp.html", 302, "no-store"],
      ["/moved.html", 307, "no-store"],
      ["/perm.html", 308, "public, max-age=3600"],
    ] as const) {
      const res = await send(url);
      expect([res.status, res.headers.location, res.headers["cache-control"]]).toEqual([status, "/portal/contact.html", cache]);
    }
  });

  it("answers HEAD as GET, and leaves other methods to the site", async () => {
    const head = await send("/about-us.html", "HEAD");
    expect([head.status, head.headers.location]).toEqual([301, "/portal/about/index.html"]);
    expect((await send("/about-us.html", "POST")).status).not.toBe(301);
  });

  it("answers a chain's last target in one redirect", async () => {
    const res = await send("/chain-a");
    expect([res.status, res.headers.location]).toEqual([301, "/portal/contact.html"]);
  });

  it("is checked before the pages and before the catch-all redirect home", async () => {
    expect((await send("/portal/about/member/index.html")).headers.location).toBe("/portal/about/index.html");
    const old = await send("/anything-old");
    expect([old.status, old.headers.location]).toEqual([301, "/portal/contact.html"]);
  });

  it("never redirects the API, images or robots.txt, whatever the rules say", async () => {
    expect((await send("/api/portal/sys/syscfg")).status).toBe(200);
    expect((await send("/portal/_img")).status).toBe(400);
    expect((await send("/robots.txt")).status).toBe(200);
  });
});

describe("never to another host", () => {
  it.each([
    "/n/%2F%2Fevil.example",
    "/n/%5Cevil.example",
    "/n/%2F%5Cevil.example",
    "/n/evil.example%3A443",
    "/n/%2E%2E",
    "/r//evil.example",
    "/r/%2F%2Fevil.example",
    "/r/%5Cevil.example",
    "/r/%5C%5Cevil.example",
    "/r/\\evil.example",
    "/q?u=%2F%2Fevil.example",
    "/q?u=%5C%5Cevil.example",
    "/shop//evil.example",
    "/shop/%2F%2Fevil.example",
  ])("%s: the Location stays on the site or the file's own host", async (url) => {
    const res = await send(url);
    expect(res.status).toBeLessThan(500);
    const location = res.headers.location;
    if (location === undefined) return;
    expect(location).not.toMatch(/^\/[/\\]/);
    expect(["portal.example", "shop.example.com"]).toContain(new URL(location, "https://portal.example").host);
  });

  it("answers a very long path and a flood of distinct ones without an error", async () => {
    expect((await send(`/news/${"9".repeat(6000)}.html`)).status).toBeLessThan(500);
    const statuses = await Promise.all(Array.from({ length: 200 }, (_, i) => send(`/news/${i}.html?n=${i}`).then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([301]));
  });
});

describe("cheap answers", () => {
  it("calls no upstream, renders nothing and is never charged to the miss budget, even when it is spent", async () => {
    // Fresh pages until the budget (60 a minute here, a burst of 6) is spent.
    for (let page = 2; (await send(`/portal/message/news/list.html?page=${page}`)).status !== 429; page++);
    const before = await metrics();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await send(`/news/${1000 + i}.html`)).status);
    expect(new Set(statuses)).toEqual(new Set([301]));
    const after = await metrics();
    expect(sumOf(after, "portal_upstream_requests_total")).toBe(sumOf(before, "portal_upstream_requests_total"));
    expect(sumOf(after, "portal_page_render_stage_seconds_count")).toBe(sumOf(before, "portal_page_render_stage_seconds_count"));
    expect(figure(after, "portal_miss_budget_refusals_total")).toBe(figure(before, "portal_miss_budget_refusals_total"));
  });
});

describe("reading the file again", () => {
  it("takes a change without a restart; a broken file keeps the rules in force, logs its line and is counted", async () => {
    expect(figure(await metrics(), "portal_redirect_rules")).toBe(22);
    await writeFile(file, `${RULES}\n/new-rule,/portal/index.html,\n`);
    while ((await send("/new-rule")).status !== 301) await new Promise((resolve) => setImmediate(resolve));
    expect((await send("/new-rule")).headers.location).toBe("/portal/index.html");

    await writeFile(file, `${RULES}\n/new-rule,/portal/index.html,\n/broken,//evil.example,\n`);
    while (figure(await metrics(), "portal_redirect_rules_load_failures_total") < 1) await new Promise((resolve) => setImmediate(resolve));
    expect((await send("/new-rule")).status).toBe(301);
    expect((await send("/broken")).status).not.toBe(301);
    // The log line reaches the test through a pipe, maybe after the metric counts it.
    const logged = () => site.logs.some((line) => line.includes("line 25: to must be a path beginning with one /"));
    while (!logged()) await new Promise((resolve) => setImmediate(resolve));
    expect(figure(await metrics(), "portal_redirect_rules")).toBe(23);
  });
});

describe("a broken file at start", () => {
  it("stops the start with one line naming the file and the line", async () => {
    const bad = path.join(dir, "bad.csv");
    await writeFile(bad, "from,to,status\n/a,/b,\n/b,/a,\n");
    const { code, lines } = await refusedStart({ REDIRECTS_FILE: bad, DATABASE_URL: `sqlite:${path.join(dir, "x.db")}` });
    expect(code).toBe(1);
    expect(lines).toEqual([`REDIRECTS_FILE ${bad} line 2: redirect rules loop: lines 2 → 3 → 2`]);
  });

  it("and one naming a file that cannot be read", async () => {
    const missing = path.join(dir, "missing.csv");
    const { code, lines } = await refusedStart({ REDIRECTS_FILE: missing, DATABASE_URL: `sqlite:${path.join(dir, "y.db")}` });
    expect(code).toBe(1);
    expect(lines).toEqual([`REDIRECTS_FILE ${missing}: cannot be read (ENOENT)`]);
  });
});
