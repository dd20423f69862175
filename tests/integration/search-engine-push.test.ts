/**
 * Telling search engines (docs/behaviour.md#telling-search-engines) on the built server, with IndexNow and Baidu as
 * real HTTP receivers on loopback that check what arrives: purges, a purge of everything, an
 * import, Baidu's spent quota, a restart with addresses waiting, the key file and the CLI push.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BAIDU_PAUSE_KEY, nextChinaMidnight } from "../../server/push/push-sender.ts";
import { createPushStore } from "../../server/push/push-store.ts";
import { runContentCli } from "../support/content-cli.ts";
import {
  type BaiduReceiver,
  type EngineCall,
  type EngineReceiver,
  startBaiduReceiver,
  startIndexNowReceiver,
} from "../support/engine-receivers.ts";
import { newPurgeSecret } from "../support/purge-request.ts";
import { PROJECT_DIR, refusedStart, type ServerProcess, startServerProcess } from "../support/server-process.ts";

const ORIGIN = "https://www.example.com";
const HOST = "www.example.com";
const KEY = "portal-indexnow-key-0123456789";
const TOKEN = "baiduToken123";
const SECRET = newPurgeSecret();
/** The demo site's news 29 to 33 have English; 1 to 28 and every notice have not. */
const TRANSLATED_NEWS = 30;
const UNTRANSLATED_NEWS = 3;

interface Engines {
  indexNow: EngineReceiver;
  baidu: BaiduReceiver;
}

async function startEngines(baiduQuota?: number): Promise<Engines> {
  const [indexNow, baidu] = await Promise.all([startIndexNowReceiver(), startBaiduReceiver({ site: HOST, token: TOKEN }, baiduQuota)]);
  return { indexNow, baidu };
}

async function stopEngines(engines: Engines): Promise<void> {
  await Promise.all([engines.indexNow.close(), engines.baidu.close()]);
}

function pushEnv(engines: Engines, dir: string): Record<string, string> {
  return {
    DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
    IMAGE_CACHE_DIR: path.join(dir, "images"),
    SEARCH_INDEX_PATH: path.join(dir, "search.db"),
    PUBLIC_ORIGIN: ORIGIN,
    PURGE_SECRET: SECRET,
    INDEXNOW_KEY: KEY,
    INDEXNOW_ENDPOINT: engines.indexNow.url,
    BAIDU_PUSH_TOKEN: TOKEN,
    BAIDU_PUSH_ENDPOINT: engines.baidu.url,
    PUSH_GATHER_MS: "200",
  };
}

async function purge(site: ServerProcess, body: unknown): Promise<void> {
  const answer = await fetch(`${site.origin}/portal/_purge`, {
    method: "POST",
    headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(202);
}

const newsPages = (id: number, english: boolean) => [
  `${ORIGIN}/portal/message/news/${id}`,
  ...(english ? [`${ORIGIN}/portal/en/message/news/${id}`] : []),
];

/** Resolves once every one of `urls` arrived in calls the receiver accepted. */
const accepted = (receiver: EngineReceiver, urls: readonly string[]) =>
  receiver.waitFor(() => urls.every((url) => receiver.accepted().includes(url)));

const urlsSince = (calls: readonly EngineCall[], from: number) => calls.slice(from).flatMap((call) => call.urls);

describe("telling search engines of purged and imported items (built server)", () => {
  let dir: string;
  let engines: Engines;
  let site: ServerProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-push-"));
    engines = await startEngines();
    env = pushEnv(engines, dir);
    site = await startServerProcess(env, { built: true });
  });
  afterAll(async () => {
    await site?.stop();
    await stopEngines(engines);
    await rm(dir, { recursive: true, force: true });
  });

  it("serves the IndexNow key as text at the origin's root, and no other key", async () => {
    const answer = await fetch(`${site.origin}/${KEY}.txt`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await answer.text()).toBe(KEY);
    const other = await fetch(`${site.origin}/${KEY}x.txt`, { redirect: "manual" });
    expect(other.status).not.toBe(200);
  });

  it("a purge of a translated news item puts both its pages before IndexNow and Baidu, each as its protocol says", async () => {
    await purge(site, { tags: [`news:${TRANSLATED_NEWS}`] });
    const pages = newsPages(TRANSLATED_NEWS, true);
    await Promise.all([accepted(engines.indexNow, pages), accepted(engines.baidu, pages)]);

    const toIndexNow = engines.indexNow.calls.find((call) => call.urls.includes(pages[0] as string)) as EngineCall;
    expect(toIndexNow).toMatchObject({ method: "POST", path: "/indexnow" });
    expect(toIndexNow.contentType).toMatch(/^application\/json/);
    expect(toIndexNow.json).toMatchObject({ host: HOST, key: KEY, keyLocation: `${ORIGIN}/${KEY}.txt` });
    expect([...((toIndexNow.json?.urlList ?? []) as string[])].sort()).toEqual([...pages].sort());

    const toBaidu = engines.baidu.calls.find((call) => call.urls.includes(pages[0] as string)) as EngineCall;
    expect(toBaidu).toMatchObject({ method: "POST", path: "/urls", query: { site: HOST, token: TOKEN } });
    expect(toBaidu.contentType).toMatch(/^text\/plain/);
    expect([...toBaidu.urls].sort()).toEqual([...pages].sort());
  });

  it("a purge by path of an untranslated item sends its Chinese page alone, whichever language the path named", async () => {
    await purge(site, { paths: [`/portal/en/message/news/${UNTRANSLATED_NEWS}`] });
    const [page] = newsPages(UNTRANSLATED_NEWS, false) as [string];
    await Promise.all([accepted(engines.indexNow, [page]), accepted(engines.baidu, [page])]);
    const english = `${ORIGIN}/portal/en/message/news/${UNTRANSLATED_NEWS}`;
    expect(engines.indexNow.calls.some((call) => call.urls.includes(english))).toBe(false);
    expect(engines.baidu.calls.some((call) => call.urls.includes(english))).toBe(false);
  });

  it("a purge of everything sends nothing: a later purge's addresses arrive alone", async () => {
    const from = { indexNow: engines.indexNow.calls.length, baidu: engines.baidu.calls.length };
    await purge(site, { all: true });
    const marker = newsPages(7, false);
    await purge(site, { tags: ["news:7"] });
    await Promise.all([accepted(engines.indexNow, marker), accepted(engines.baidu, marker)]);
    expect(urlsSince(engines.indexNow.calls, from.indexNow)).toEqual(marker);
    expect(urlsSince(engines.baidu.calls, from.baidu)).toEqual(marker);
  });

  it("an import sends the pages of the items it adds or changes, and of no other", async () => {
    const siteFile = JSON.parse(await readFile(path.join(PROJECT_DIR, "content/site.json"), "utf8"));
    const changed = siteFile.news.find((n: { id: number }) => n.id === 12);
    changed.title = "A headline changed by an import";
    const added = { ...siteFile.notices[0], id: 9001, title: "A notice an import adds" };
    siteFile.notices.push(added);
    const file = path.join(dir, "changed.json");
    await writeFile(file, JSON.stringify(siteFile));
    const from = { indexNow: engines.indexNow.calls.length, baidu: engines.baidu.calls.length };

    const child = spawn(process.execPath, ["dist/server/content-cli.js", "import", file], {
      cwd: PROJECT_DIR,
      env: { PATH: process.env.PATH ?? "", ...env },
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect({ code, stderr }).toMatchObject({ code: 0, stderr: expect.stringContaining("queued 2 changed page addresses") });

    const expected = [`${ORIGIN}/portal/message/news/12`, `${ORIGIN}/portal/message/notice/9001`];
    await Promise.all([accepted(engines.indexNow, expected), accepted(engines.baidu, expected)]);
    expect([...urlsSince(engines.indexNow.calls, from.indexNow)].sort()).toEqual(expected);
    expect([...urlsSince(engines.baidu.calls, from.baidu)].sort()).toEqual(expected);
  });

  it("npm run content -- push sends addresses by hand, and refuses any not a canonical page on PUBLIC_ORIGIN under /portal", async () => {
    const cliEnv = { ...env, LOG_LEVEL: "silent" };
    const refusals: [string, string][] = [
      ["https://elsewhere.example.com/portal/message/news/1", "is not on PUBLIC_ORIGIN (https://www.example.com)"],
      [`${ORIGIN}/about.html`, "is not under /portal/"],
      [`${ORIGIN}/portal/search.html?q=x`, "is a page search engines are told not to index"],
      [`${ORIGIN}/portal/en/contact.html`, "is a page search engines are told not to index"],
      ["/portal/message/news/1", "is not an absolute URL"],
      // Written otherwise, each is still a page that must not be sent, or no page at all.
      [`${ORIGIN}/portal/%73earch.html`, `${ORIGIN}/portal/%73earch.html is a page search engines are told not to index`],
      [`${ORIGIN}/portal/%5Fpurge`, "is a page search engines are told not to index"],
      [`${ORIGIN}/portal/en/en/news.html`, "is redirected to /portal/en/news.html"],
      [`${ORIGIN}/portal/zh-CN/contact.html`, "is not a page of the site"],
    ];
    for (const [url, message] of refusals) {
      const run = await runContentCli(["push", `${ORIGIN}/portal/product/1`, url], cliEnv);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(message);
    }
    const unconfigured = await runContentCli(["push", `${ORIGIN}/portal/product/1`], {
      ...cliEnv,
      INDEXNOW_KEY: "",
      BAIDU_PUSH_TOKEN: "",
    });
    expect(unconfigured).toMatchObject({ code: 1, stderr: expect.stringContaining("no search engine is configured") });
    const pages = [`${ORIGIN}/portal/about/index.html`, `${ORIGIN}/portal/en/product/2`];
    const run = await runContentCli(["push", ...pages], cliEnv);
    expect(run).toMatchObject({ code: 0, stderr: expect.stringContaining("queued 2 addresses for indexnow and baidu") });
    await Promise.all([accepted(engines.indexNow, pages), accepted(engines.baidu, pages)]);
    // The refused runs queued nothing, not even their good address.
    expect(engines.indexNow.calls.some((call) => call.urls.includes(`${ORIGIN}/portal/product/1`))).toBe(false);
  }, 120_000);
});

describe("starting without PUBLIC_ORIGIN", () => {
  it("is refused with one line when a search engine is configured", async () => {
    const { code, lines } = await refusedStart({ INDEXNOW_KEY: KEY, LOG_LEVEL: "silent" });
    expect(code).toBe(1);
    expect(lines).toEqual(["INDEXNOW_KEY needs PUBLIC_ORIGIN as well"]);
  });
});

describe("Baidu's spent quota (built server)", () => {
  it("stops Baidu alone until the next day in China; IndexNow goes on receiving", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "portal-push-quota-"));
    const engines = await startEngines(0);
    const env = pushEnv(engines, dir);
    const site = await startServerProcess(env, { built: true });
    try {
      const first = newsPages(1, false);
      await purge(site, { tags: ["news:1"] });
      await Promise.all([accepted(engines.indexNow, first), engines.baidu.waitFor((calls) => calls.length === 1)]);
      expect(engines.baidu.calls[0]).toMatchObject({ status: 400, urls: first });

      const second = newsPages(2, false);
      await purge(site, { tags: ["news:2"] });
      await accepted(engines.indexNow, second);
      // Baidu's address waits in the queue, due at the next midnight in China, and the pause is recorded.
      const store = createPushStore(env.DATABASE_URL as string);
      try {
        const pausedUntil = Number(await store.readState(BAIDU_PAUSE_KEY));
        expect([nextChinaMidnight(Date.now() - 60_000), nextChinaMidnight(Date.now())]).toContain(pausedUntil);
        expect(await store.oldestWaiting(["baidu"])).toBeDefined();
      } finally {
        await store.close();
      }
      expect(engines.baidu.calls).toHaveLength(1);
    } finally {
      await site.stop();
      await stopEngines(engines);
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("addresses waiting across a restart (built server)", () => {
  it("are sent once after the server is stopped with the engines down and started again", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "portal-push-restart-"));
    const engines = await startEngines();
    const env = pushEnv(engines, dir);
    engines.indexNow.up = false;
    engines.baidu.up = false;
    let site = await startServerProcess(env, { built: true });
    try {
      const pages = newsPages(TRANSLATED_NEWS, true);
      await purge(site, { tags: [`news:${TRANSLATED_NEWS}`] });
      // Tried and failed at both: the retry is in the database only.
      await Promise.all([
        engines.indexNow.waitFor((calls) => calls.some((call) => call.status === 503)),
        engines.baidu.waitFor((calls) => calls.some((call) => call.status === 500)),
      ]);
      await site.stop();
      engines.indexNow.up = true;
      engines.baidu.up = true;
      site = await startServerProcess(env, { built: true });
      await Promise.all([accepted(engines.indexNow, pages), accepted(engines.baidu, pages)]);
      for (const receiver of [engines.indexNow, engines.baidu]) {
        for (const page of pages) expect(receiver.accepted().filter((url) => url === page)).toHaveLength(1);
      }
    } finally {
      await site.stop();
      await stopEngines(engines);
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
