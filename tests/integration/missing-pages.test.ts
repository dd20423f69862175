/**
 * The missing-pages log on the built site (docs/behaviour.md#missing-pages): not-found pages and catch-all redirects counted by path,
 * fast path included, listed by the internal listener's /not-found as JSON and as a redirects file to fill in.
 */
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMissingPages } from "../../server/operations/missing-pages.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";

let site: BuiltSite;
let internal: string;

const get = (path: string, headers: Record<string, string> = {}) => fetch(site.origin + path, { headers, redirect: "manual" });

interface Listed {
  path: string;
  count: number;
  firstSeen: string;
  lastSeen: string;
  referrer: string | null;
}

const listed = async (): Promise<Listed[]> => {
  const res = await fetch(`${internal}/not-found`);
  expect(res.status).toBe(200);
  return (await res.json()) as Listed[];
};

beforeAll(async () => {
  site = await startBuiltSite({ MISS_RATE_PER_MIN: "0", METRICS_PORT: "0" });
  const port = site.logs
    .map((line) => JSON.parse(line) as { msg?: string; port?: number })
    .find((entry) => entry.msg === "internal listener")?.port;
  internal = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await site?.close();
});

describe("the missing-pages log", () => {
  it("counts not-found pages (the cached ones too) and catch-all redirects by path, and nothing else", async () => {
    const before = Date.now();
    expect(await listed()).toEqual([]);
    const referer = { Referer: "https://old.example.com/list.php?secret=1" };
    // Until the page cache answers it before Express (its store runs after the first answer).
    let notFound = 0;
    for (let cache: string | null = null; cache !== "HIT"; notFound++) {
      expect(notFound).toBeLessThan(50);
      const res = await get("/portal/message/news/424242", referer);
      expect(res.status).toBe(404);
      cache = res.headers.get("x-page-cache");
    }
    for (const path of ["/portal/message/news/424242?utm_source=x", "/portal/message/news/4242%34%32"]) {
      expect((await get(path, referer)).status, path).toBe(404);
      notFound++;
    }
    for (const path of ["/index.php?aid=12", "/index.php?aid=13", "/%69ndex.php", "/news/a,b.html", "/=HYPERLINK(1)"]) {
      expect((await get(path)).status, path).toBe(302);
    }
    // Not missing pages: the home redirect, the API's 404, images, files, a method that is not GET.
    const others = [
      ["/", 302],
      ["/portal/", 302],
      ["/api/portal/message/news/424242", 404],
      ["/portal/media/no-such.jpg", 404],
      ["/portal/_img?url=%2Fportal%2Fmedia%2Fno-such.jpg&w=640&q=75", 404],
      ["/favicon.ico", 302],
      ["/old/logo.png", 302],
    ] as const;
    for (const [path, status] of others) expect((await get(path)).status, path).toBe(status);
    expect((await fetch(`${site.origin}/wp-login.php`, { method: "POST" })).status).toBe(405);

    const pages = await listed();
    expect(pages.map(({ path, count, referrer }) => ({ path, count, referrer }))).toEqual([
      { path: "/portal/message/news/424242", count: notFound, referrer: "https://old.example.com" },
      { path: "/index.php", count: 3, referrer: null },
      { path: "/=HYPERLINK(1)", count: 1, referrer: null },
      { path: "/news/a,b.html", count: 1, referrer: null },
    ]);
    for (const page of pages) {
      expect(Date.parse(page.firstSeen)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(page.lastSeen)).toBeGreaterThanOrEqual(Date.parse(page.firstSeen));
      expect(page.lastSeen).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }

    const csv = await fetch(`${internal}/not-found?format=csv`);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await csv.text()).toBe(
      ["from,to,status", "/portal/message/news/424242,,", "/index.php,,", "/=HYPERLINK(1),,", '"/news/a,b.html",,', ""].join("\n"),
    );

    const metrics = await (await fetch(`${internal}/metrics`)).text();
    expect(metrics).toContain(`portal_missing_pages_total{status="404"} ${notFound}`);
    expect(metrics).toContain('portal_missing_pages_total{status="302"} 5');
  });

  it("writes rule syntax in a path as literal text: the row filled in redirects that one path and nothing else", async () => {
    // As sent with curl --path-as-is: `:` and `*` arrive as they are.
    for (const path of ["/*", "/:page"]) expect((await get(path)).status, path).toBe(302);
    const csv = await (await fetch(`${internal}/not-found?format=csv`)).text();
    const rows = csv.split("\n").filter((row) => row.includes("%2A") || row.includes("%3A"));
    expect(rows).toEqual(["/%2A,,", "/%3Apage,,"]);
    const dir = await mkdtemp(path.join(tmpdir(), "portal-missing-rules-"));
    const file = path.join(dir, "rules.csv");
    await writeFile(file, ["from,to,status", ...rows.map((row) => row.replace(/,,$/, ",/portal/contact.html,"))].join("\n"));
    const moved = await startBuiltSite({ REDIRECTS_FILE: file, MISS_RATE_PER_MIN: "0" });
    try {
      for (const path of ["/*", "/:page"]) {
        const res = await fetch(moved.origin + path, { redirect: "manual" });
        expect(res.status, path).toBe(301);
        expect(res.headers.get("location"), path).toBe("/portal/contact.html");
      }
      // Anything else goes on to the catch-all redirect home, as before the file.
      for (const path of ["/page", "/news/12.html", "/:other", "/x/*", "/portal/message/news/424242"]) {
        const res = await fetch(moved.origin + path, { redirect: "manual" });
        expect(res.headers.get("location") ?? "", path).not.toBe("/portal/contact.html");
      }
    } finally {
      await moved.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("keeps paths asked for again through a flood of distinct one-offs, and lists no one-off above 1", async () => {
    for (let i = 0; i < 50; i++) expect((await get("/often-asked.html")).status).toBe(302);
    for (let i = 0; i < 6; i++) expect((await get("/six-times.html")).status).toBe(302);
    // Three times the log's 1,024 counters, from eight connections at once.
    let next = 0;
    const flood = async () => {
      while (next < 3072) {
        const res = await get(`/missing-${next++}-flood`);
        expect(res.status).toBe(302);
      }
    };
    await Promise.all(Array.from({ length: 8 }, flood));
    const pages = await listed();
    expect(pages).toHaveLength(100);
    expect(pages.slice(0, 2).map(({ path, count }) => [path, count])).toEqual([
      ["/often-asked.html", 50],
      ["/six-times.html", 6],
    ]);
    const oneOffs = pages.filter((page) => page.path.endsWith("-flood"));
    expect(oneOffs.length).toBeGreaterThan(0);
    expect(oneOffs.filter((page) => page.count !== 1)).toEqual([]);
  });

  it("refuses a format it does not know with 400", async () => {
    const res = await fetch(`${internal}/not-found?format=xml`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "format must be json or csv" });
  });
});

describe("which answers are missing pages, whoever sends them", () => {
  it("counts an HTML 410 or 404 (a cached one, whose headers cannot be read back, too) and no error answer", async () => {
    const log = createMissingPages({ tier: undefined });
    const server = http.createServer((req, res) => {
      const url = req.url ?? "";
      res.once("finish", () => log.observe(url, req, res));
      if (url.startsWith("/gone")) res.writeHead(410, { "Content-Type": "text/html; charset=utf-8" }).end("<p>gone</p>");
      else if (url.startsWith("/cached")) res.writeHead(404, ["Content-Type", "text/html; charset=utf-8"]).end("<p>none</p>");
      else {
        // As the error handler sends one (http/errors.ts): headers set, then the answer.
        res.setHeader("Content-Type", "text/plain; charset=utf-8");
        res.writeHead(404).end("404 not found\n");
      }
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const path of ["/gone/a", "/gone/a", "/cached/b", "/error/c"]) await (await fetch(origin + path)).text();
      expect((await log.top()).map(({ path, count }) => ({ path, count }))).toEqual([
        { path: "/gone/a", count: 2 },
        { path: "/cached/b", count: 1 },
      ]);
      expect(log.totals()).toEqual({ "404": 1, "410": 2, "302": 0 });
    } finally {
      server.close();
    }
  });
});
