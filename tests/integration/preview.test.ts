/**
 * Editors see it first (docs/behaviour.md#preview, #drafts-and-schedules), on the built server with the embedded
 * demo in two processes: a draft imported by `npm run content -- import` is on no public page, list, search,
 * sitemap or feed; its signed preview link shows it with the banner, past every cache; the public pages after
 * the preview are as before; an item scheduled 10 s ahead appears by itself in both processes; forged, expired
 * and off-site links are refused.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PurgeSecret } from "../../server/config.ts";
import { previewLinkOf } from "../../server/preview/preview.ts";
import { type EngineReceiver, startIndexNowReceiver } from "../support/engine-receivers.ts";
import { freshGet } from "../support/fresh-get.ts";
import { PROJECT_DIR, type ServerProcess, startServerProcess } from "../support/server-process.ts";

const SECRET_TEXT = `whsec_${Buffer.from("preview secret of sixteen+ bytes").toString("base64")}`;
const SECRET: PurgeSecret = { text: SECRET_TEXT, key: Buffer.from("preview secret of sixteen+ bytes") };
const DRAFT = { id: 9001, title: "Draft headline only editors see 预览稿" };
const SCHEDULED = { id: 9002, title: "Scheduled headline 定时稿" };

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["dist/server/content-cli.js", ...args], {
    cwd: PROJECT_DIR,
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

/** 14 digits, as the site file's dateTime: now, so both items head the news list. */
const dateTimeOf = (ms: number) => new Date(ms).toISOString().replace(/\D/g, "").slice(0, 14);

let dir: string;
let server: ServerProcess;
let databaseUrl: string;
let scheduledAt: number;
let indexNow: EngineReceiver;
const ORIGIN = "https://www.example.com";

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "portal-preview-"));
  databaseUrl = `sqlite:${path.join(dir, "portal.db")}`;
  indexNow = await startIndexNowReceiver();
  // The server and the import command alike tell IndexNow of what changes.
  const pushEnv = { PUBLIC_ORIGIN: ORIGIN, INDEXNOW_KEY: "preview-test-key", INDEXNOW_ENDPOINT: indexNow.url, PUSH_GATHER_MS: "200" };
  // Long lifetimes: only a purge can bring a scheduled item in within the time the test waits.
  server = await startServerProcess(
    {
      DATABASE_URL: databaseUrl,
      IMAGE_CACHE_DIR: path.join(dir, "images"),
      WEB_CONCURRENCY: "2",
      CACHE_TTL_MS: "3600000",
      PREVIEW_SECRET: SECRET_TEXT,
      ...pushEnv,
    },
    { built: true },
  );
  const site = JSON.parse(await readFile(path.join(PROJECT_DIR, "content/site.json"), "utf8"));
  const model = site.news[0];
  const now = Date.now();
  scheduledAt = now + 10_000;
  site.news.push(
    { ...model, ...DRAFT, brief: "draft brief", detail: "<p>draft body</p>", dateTime: dateTimeOf(now), status: "draft" },
    {
      ...model,
      ...SCHEDULED,
      brief: "scheduled brief",
      detail: "<p>scheduled body</p>",
      dateTime: dateTimeOf(now),
      publishAt: new Date(scheduledAt).toISOString(),
    },
  );
  const file = path.join(dir, "with-drafts.json");
  await writeFile(file, JSON.stringify(site));
  expect(await cli(["import", file], { DATABASE_URL: databaseUrl, ...pushEnv })).toMatchObject({ code: 0 });
  // The import is live once both processes have purged for it.
  const purges = () => server.logs.filter((line) => line.includes("the content database got an import"));
  while (new Set(purges().map((line) => JSON.parse(line).pid)).size < 2) await new Promise((resolve) => setTimeout(resolve, 50));
}, 60_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) await server.stop();
  await indexNow?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (pathAndQuery: string, cookie?: string) =>
  fetch(`${server.origin}${pathAndQuery}`, { redirect: "manual", headers: cookie ? { cookie } : {} });

async function openPreview(link: string): Promise<string> {
  const res = await get(link);
  expect(res.status).toBe(303);
  const cookie = res.headers.get("set-cookie") ?? "";
  return cookie.split(";")[0] as string;
}

describe("a draft", () => {
  it("is on no public page: list, detail, search, sitemap, feed, API", async () => {
    const answers = await Promise.all(
      [
        "/portal/message/news/list.html",
        "/portal/sitemap.xml",
        "/portal/message/news/rss.xml",
        "/api/portal/message/news/list?pageIndex=0&pageMaxCount=50",
      ].map(async (p) => {
        const res = await get(p);
        expect(res.status, p).toBe(200);
        return res.text();
      }),
    );
    // Each holds the news a visitor sees (the newest published one), and not the draft.
    const [list, sitemap, feed, api] = answers as [string, string, string, string];
    for (const text of [list, feed, api]) expect(text).toContain("青禾数智获评2026年度浙江省数字化转型优秀服务商");
    expect(sitemap).toContain("/portal/message/news/33<");
    for (const text of answers) expect(text).not.toContain(DRAFT.title);
    for (const text of answers) expect(text).not.toContain(`news/${DRAFT.id}`);
    expect((await get(`/portal/message/news/${DRAFT.id}`)).status).toBe(404);
    expect((await get(`/api/portal/message/news/${DRAFT.id}`)).status).toBe(404);
    // A visitor's own preview parameter is dropped before the upstream sees it.
    expect((await get(`/api/portal/message/news/${DRAFT.id}?preview=1`)).status).toBe(404);
    const search = await (await get(`/api/portal/search?q=${encodeURIComponent("预览稿")}`)).json();
    expect(search.data.totalCount).toBe(0);
  });

  it("is shown by its preview link with the banner, answered private, no-store and noindex; the public page is unchanged after", async () => {
    const page = `/portal/message/news/${DRAFT.id}`;
    const link = previewLinkOf(page, Math.floor(Date.now() / 1000) + 600, SECRET);
    const opened = await get(link);
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe(page);
    expect(opened.headers.get("clear-site-data")).toBe('"cache"');
    const setCookie = opened.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^portal_preview=\d+\.[\w-]+; Max-Age=\d+; Path=\/portal; HttpOnly; SameSite=Lax; Secure$/);
    expect(Number(/Max-Age=(\d+)/.exec(setCookie)?.[1])).toBeLessThanOrEqual(600);
    const cookie = setCookie.split(";")[0] as string;

    // Asked twice: neither the first nor the second is anyone's cached answer.
    for (let i = 0; i < 2; i++) {
      const shown = await get(page, cookie);
      expect(shown.status).toBe(200);
      expect(shown.headers.get("cache-control")).toBe("private, no-store");
      expect(shown.headers.get("x-robots-tag")).toBe("noindex");
      expect(shown.headers.get("x-page-cache")).toBeNull();
      const html = await shown.text();
      expect(html).toContain(DRAFT.title);
      expect(html).toMatch(/<section class="preview-banner" aria-label="预览">/);
      expect(html).toContain(`href="/portal/_preview/exit?path=${encodeURIComponent(page)}"`);
    }
    // The list a preview shows has the draft and the item not yet due; the visitors' list, neither.
    const list = await (await get("/portal/message/news/list.html", cookie)).text();
    expect(list).toContain(DRAFT.title);
    // In the page's language: an English page's banner is in English.
    const english = await (await get("/portal/en/message/news/list.html", cookie)).text();
    expect(english).toContain('<section class="preview-banner" aria-label="Preview"><p>This is a preview: ');
    expect(english).toContain(
      `<a href="/portal/_preview/exit?path=${encodeURIComponent("/portal/en/message/news/list.html")}">Leave the preview</a>`,
    );
    const data = await get(`/portal/_preview/api/message/news/${DRAFT.id}`, cookie);
    expect(data.status).toBe(200);
    expect(data.headers.get("cache-control")).toBe("private, no-store");
    expect(await data.text()).toContain(DRAFT.title);

    expect((await get(page)).status).toBe(404);
    expect(await (await get("/portal/message/news/list.html")).text()).not.toContain(DRAFT.title);
    expect((await get(`/portal/_preview/api/message/news/${DRAFT.id}`)).status).toBe(403);

    const exit = await get(`/portal/_preview/exit?path=${encodeURIComponent(page)}`, cookie);
    expect(exit.status).toBe(303);
    expect(exit.headers.get("location")).toBe(page);
    expect(exit.headers.get("set-cookie")).toMatch(/^portal_preview=; Max-Age=0; Path=\/portal/);
  });

  it("counts no reader in a preview", async () => {
    const cookie = await openPreview(previewLinkOf("/portal/", Math.floor(Date.now() / 1000) + 600, SECRET));
    const put = await fetch(`${server.origin}/portal/_preview/api/reader/reader`, {
      method: "PUT",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ type: 2, pid: 1 }),
    });
    expect(put.status).toBe(200);
    expect(put.headers.get("x-reader")).toBe("preview");
  });
});

describe("preview links", () => {
  const page = `/portal/message/news/${DRAFT.id}`;
  const refused = async (link: string) => {
    const res = await get(link);
    return { status: res.status, cookie: res.headers.get("set-cookie"), text: await res.text() };
  };

  it("refuses a forged, an expired and an off-site link with 403 and no cookie", async () => {
    const future = Math.floor(Date.now() / 1000) + 600;
    const forged = previewLinkOf(page, future, { text: "", key: Buffer.from("another secret, not the server's") });
    const expired = previewLinkOf(page, Math.floor(Date.now() / 1000) - 1, SECRET);
    const offSite = previewLinkOf("//evil.example/portal/", future, SECRET);
    const backslash = previewLinkOf("/\\evil.example/portal/", future, SECRET);
    const tampered = previewLinkOf(page, future, SECRET).replace(`expires=${future}`, `expires=${future + 86_400}`);
    for (const [link, says] of [
      [forged, "signature does not match"],
      [expired, "expired"],
      [offSite, "page of this site"],
      [backslash, "page of this site"],
      [tampered, "signature does not match"],
    ] as const) {
      const answer = await refused(link);
      expect(answer).toMatchObject({ status: 403, cookie: null });
      expect(answer.text).toContain(says);
    }
  });

  it("refuses a forged or expired cookie: the visitor's page, from the cache", async () => {
    const forged = `portal_preview=${Math.floor(Date.now() / 1000) + 600}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    expect((await get(page, forged)).status).toBe(404);
    const home = await get("/portal/message/news/list.html", forged);
    expect(home.headers.get("cache-control")).not.toContain("no-store");
    expect(await home.text()).not.toContain(DRAFT.title);
  });
});

describe("an item scheduled 10 seconds ahead", () => {
  it("appears on the list by itself within 15 seconds, in both processes", async () => {
    // Before it is due, no process shows it.
    if (Date.now() < scheduledAt - 1000)
      expect((await freshGet(`${server.origin}/portal/message/news/list.html`)).text).not.toContain(SCHEDULED.title);
    let inARow = 0;
    while (inARow < 8) {
      const { text } = await freshGet(`${server.origin}/portal/message/news/list.html`);
      inARow = text.includes(SCHEDULED.title) ? inARow + 1 : 0;
      if (inARow === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const due = () => server.logs.filter((line) => line.includes("a scheduled item is due"));
    expect(new Set(due().map((line) => JSON.parse(line).pid)).size).toBe(2);
    expect((await freshGet(`${server.origin}/portal/message/news/${SCHEDULED.id}`)).status).toBe(200);
    // The search is read again: the item is found once it is published, the draft still not.
    let found = 0;
    while (found === 0) {
      found = (await (await get(`/api/portal/search?q=${encodeURIComponent("定时稿")}`)).json()).data.totalCount;
      if (found === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await (await get(`/api/portal/search?q=${encodeURIComponent("预览稿")}`)).json()).data.totalCount).toBe(0);
    // Search engines are told of it as it appears; of the draft, never (neither by the import nor since).
    await indexNow.waitFor(() => indexNow.accepted().includes(`${ORIGIN}/portal/message/news/${SCHEDULED.id}`));
    expect(indexNow.accepted().filter((url) => url.includes(`/news/${DRAFT.id}`))).toEqual([]);
  }, 30_000);
});
