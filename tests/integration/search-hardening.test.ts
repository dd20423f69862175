/**
 * Search that costs the server little whatever it is asked (docs/behaviour.md#search,
 * "Bounded" and "Off the main thread"): the costliest queries and a whole refresh run
 * beside the event loop, not on it; a refresh writes only what changed and says so; and a
 * purge naming an item is read again even when the index is never refreshed.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createUpstreamClient } from "../../server/api-proxy/upstream-client.ts";
import { createLogger } from "../../server/logger.ts";
import { createSearch, type IndexChanges } from "../../server/search/search.ts";
import type { SearchQuery } from "../../shared/search.ts";
import { type StandInUpstream, startStandInUpstream } from "../support/stand-in-upstream.ts";

const ITEMS = 1500;
const LETTERS = "abcdefghijklmnopqrstuvwxyz".split("");
const CHARS =
  "的一是在有人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严".split(
    "",
  );

/** Items whose text holds every letter's words and the commonest characters, so one-letter and common-character queries match most. */
function newsItems(count: number, edition = "") {
  return Array.from({ length: count }, (_, i) => {
    const words = Array.from(
      { length: 40 },
      (_, k) => `${LETTERS[(i + k) % 26]}${LETTERS[(i * 7 + k) % 26]}${LETTERS[(k * 3) % 26]}x`,
    ).join(" ");
    const chinese = Array.from({ length: 200 }, (_, k) => CHARS[(i * 13 + k * 7) % CHARS.length]).join("");
    return {
      id: i + 1,
      title: `${CHARS[i % 50]}${CHARS[(i + 3) % 50]}新闻${edition} ${LETTERS[i % 26]}${i}`,
      brief: chinese.slice(0, 60),
      dateTime: `2025${String(1 + (i % 12)).padStart(2, "0")}${String(1 + (i % 28)).padStart(2, "0")}093000`,
      detail: `<p>${chinese}</p><p>${words}</p>`,
    };
  });
}

function routesOf(news: unknown[]) {
  return {
    "/api/portal/message/news/list": { pageDataList: news, totalCount: news.length, totalPageCount: 1 },
    "/api/portal/message/notice/list": { pageDataList: [], totalCount: 0, totalPageCount: 0 },
    "/api/portal/product/product/list": [],
    "/api/portal/service/service/list": [],
    "/api/portal/job/job/list": { pageDataList: [], totalCount: 0, totalPageCount: 0 },
  };
}

/** The red team's queries and their like, each within the 100 characters a query may have. */
const COSTLY = [
  LETTERS.join(" "),
  `${CHARS.slice(0, 25).join("")}${LETTERS.slice(0, 25).join("")}`,
  CHARS.slice(0, 50).join(" "),
  CHARS.slice(0, 100).join(""),
  LETTERS.map((l) => `${l}${l}`).join(" "),
  `${LETTERS.slice(0, 20).join(" ")} ${CHARS.slice(0, 20).join(" ")}`,
].map((q) => q.slice(0, 100));

interface Running {
  search: ReturnType<typeof createSearch>;
  changes: IndexChanges[];
}

let dir: string;
const started: Running[] = [];
const logger = createLogger("silent");

function startSearch(upstream: StandInUpstream, refreshMs: number, file = path.join(dir, "search.db")): Running {
  const changes: IndexChanges[] = [];
  const search = createSearch(
    { file, refreshMs, contentLang: false, contentLangParam: undefined },
    {
      upstream: createUpstreamClient({ baseUrl: upstream.url, timeoutMs: 5000 }),
      logger,
      answerHeaders: [],
      onIndexChanges: (batch) => changes.push(batch),
    },
  );
  search.start();
  const running = { search, changes };
  started.push(running);
  return running;
}

/** The main thread's CPU and the whole process's (every thread) while `work` runs: CPU, not wall time, so a busy machine moves both alike. */
async function costOf(work: () => Promise<unknown>): Promise<{ mainCpuMs: number; cpuMs: number }> {
  const main = process.threadCpuUsage();
  const cpu = process.cpuUsage();
  await work();
  const usedMain = process.threadCpuUsage(main);
  const used = process.cpuUsage(cpu);
  return { mainCpuMs: (usedMain.user + usedMain.system) / 1000, cpuMs: (used.user + used.system) / 1000 };
}

const query = (q: string, more: Partial<SearchQuery> = {}): SearchQuery => ({ q, pageIndex: 0, pageMaxCount: 20, ...more });

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "portal-search-hardening-"));
});
afterEach(() => {
  for (const running of started.splice(0)) running.search.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("costly searches and refreshes", () => {
  let upstream: StandInUpstream;
  beforeAll(async () => {
    upstream = await startStandInUpstream(routesOf(newsItems(ITEMS)));
  });
  afterAll(() => upstream?.close());

  it("builds and refreshes beside the event loop, and a refresh of unchanged content writes nothing and reports nothing", async () => {
    rmSync(path.join(dir, "search.db"), { force: true });
    const { search, changes } = startSearch(upstream, 0);
    const build = await costOf(() => search.rebuild());
    expect(search.figures().documents).toBe(ITEMS);
    // Tokenising and writing happen in the index's thread: the main thread only reads the content API.
    expect(build.mainCpuMs).toBeLessThan(build.cpuMs * 0.5);
    expect(changes).toEqual([expect.objectContaining({ lang: "zh-CN", fromScratch: true })]);
    expect(changes[0]?.items).toHaveLength(ITEMS);

    changes.length = 0;
    await search.rebuild();
    expect(changes).toEqual([]);

    // One item changed and one gone: each told once, by its identity.
    const edited = newsItems(ITEMS);
    (edited[4] as { title: string }).title = "改版后的标题 zeta";
    upstream.routes.set("/api/portal/message/news/list", routesOf(edited.slice(0, -1))["/api/portal/message/news/list"]);
    await search.rebuild();
    expect(changes).toEqual([
      {
        lang: "zh-CN",
        fromScratch: false,
        items: [
          { type: "news", id: 5, change: "changed" },
          { type: "news", id: ITEMS, change: "gone" },
        ],
      },
    ]);
    expect((await search.search(query("改版 zeta"))).pageDataList.map((hit) => hit.id)).toEqual([5]);
    expect((await search.search(query(`${LETTERS[(ITEMS - 1) % 26]}${ITEMS - 1}`))).totalCount).toBe(0);
    upstream.routes.set("/api/portal/message/news/list", routesOf(newsItems(ITEMS))["/api/portal/message/news/list"]);
  }, 120_000);

  it("answers the costliest queries beside the event loop, and still by the rules: every term needed, one letter a whole word", async () => {
    const { search } = startSearch(upstream, 0);
    await search.rebuild();
    const cost = await costOf(() =>
      Promise.all(COSTLY.flatMap((q) => [0, 1, 2].map((page) => search.search(query(q, { pageIndex: page }))))),
    );
    // The searches' CPU is spent in the index's thread, not in the one whose event loop answers every visitor.
    expect(cost.mainCpuMs).toBeLessThan(cost.cpuMs * 0.5);
    // A letter alone is a word, not the start of every word: "a" finds no item, whose words all have four letters.
    expect((await search.search(query("a"))).totalCount).toBe(0);
    const title = (await search.search(query(`${LETTERS[7]}7`))).pageDataList[0]?.title ?? "";
    expect(title.replace(/[\uE000\uE001]/g, "")).toBe(`${CHARS[7]}${CHARS[10]}新闻 ${LETTERS[7]}7`);
    expect((await search.search(query(`${LETTERS[7]}7 不在其中`))).totalCount).toBe(0);
  }, 120_000);
});

describe("never refreshed (SEARCH_REFRESH_MS=0)", () => {
  it("reads an item a purge names again, and drops it from the index when it is gone", async () => {
    rmSync(path.join(dir, "search.db"), { force: true });
    const upstream = await startStandInUpstream({
      ...routesOf([{ id: 12, title: "年度客户大会", brief: "简介", dateTime: "20260101000000", detail: "<p>正文</p>" }]),
      "/api/portal/message/news/12": { id: 12, title: "年度客户大会", brief: "简介", dateTime: "20260101000000", detail: "<p>正文</p>" },
    });
    try {
      const first = startSearch(upstream, 600_000);
      await first.search.rebuild();
      first.search.close();

      // Never refreshed: only purges change what it holds.
      const { search, changes } = startSearch(upstream, 0);
      expect((await search.search(query("客户大会"))).totalCount).toBe(1);
      upstream.routes.set("/api/portal/message/news/12", { id: 12, title: "生态伙伴大会", brief: "简介", dateTime: "20260101000000" });
      search.onPurge({ tags: ["news:12"], paths: [], all: false, mode: "hard" });
      await search.settled();
      expect((await search.search(query("伙伴"))).pageDataList.map((hit) => hit.id)).toEqual([12]);

      upstream.routes.delete("/api/portal/message/news/12");
      search.onPurge({ tags: [], paths: ["/portal/message/news/12"], all: false, mode: "hard" });
      await search.settled();
      expect((await search.search(query("伙伴"))).totalCount).toBe(0);
      expect((await search.search(query("大会"))).totalCount).toBe(0);
      expect(changes.flatMap((batch) => batch.items)).toEqual([
        { type: "news", id: 12, change: "changed" },
        { type: "news", id: 12, change: "gone" },
      ]);
    } finally {
      await upstream.close();
    }
  }, 60_000);

  it("builds an index an earlier version wrote again at start, though it is never refreshed", async () => {
    const own = mkdtempSync(path.join(dir, "outdated-"));
    const file = path.join(own, "search.db");
    const upstream = await startStandInUpstream(routesOf(newsItems(3)));
    try {
      const first = startSearch(upstream, 600_000, file);
      await first.search.rebuild();
      first.search.close();
      await waitUntil(() => !existsSync(`${file}.builder`));
      // As the version before the tokens dropped Arabic's article wrote it.
      const db = new Database(file);
      db.prepare("UPDATE meta SET value = '3.2' WHERE key = 'version'").run();
      db.close();
      const walks = upstream.count("/api/portal/message/news/list");
      const { search } = startSearch(upstream, 0, file);
      for (let i = 0; (await search.search(query(`${LETTERS[1]}1`))).totalCount === 0; i++) {
        expect(i, "the index is built again").toBeLessThan(300);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(upstream.count("/api/portal/message/news/list")).toBe(walks + 1);
    } finally {
      await upstream.close();
    }
  }, 60_000);
});

describe("one index per instance", () => {
  it("is kept by one process and read by the others, which follow its builds and purges and take it over when it stops", async () => {
    // A folder of its own: the searches of the tests before let their leases go once their threads have stopped.
    const own = mkdtempSync(path.join(dir, "instance-"));
    const file = path.join(own, "search.db");
    const item = (title: string) => ({ id: 12, title, brief: "简介", dateTime: "20260101000000", detail: `<p>${title}</p>` });
    const upstream = await startStandInUpstream({
      ...routesOf([item("年度客户大会")]),
      "/api/portal/message/news/12": item("年度客户大会"),
    });
    try {
      const keeper = startSearch(upstream, 0, file);
      await keeper.search.rebuild();
      // Started after the first build: in one process, a thread opening the index would take a build under way for a dead process's.
      const reader = startSearch(upstream, 0, file);
      // The reader builds nothing (the upstream saw one walk), yet answers from the keeper's index.
      await reader.search.rebuild();
      expect(upstream.count("/api/portal/message/news/list")).toBe(1);
      expect((await reader.search.search(query("客户大会"))).totalCount).toBe(1);

      // Every process gets each purge; the keeper applies it, and the reader sees it.
      upstream.routes.set("/api/portal/message/news/12", item("生态伙伴大会"));
      for (const one of [reader, keeper]) one.search.onPurge({ tags: ["news:12"], paths: [], all: false, mode: "hard" });
      await keeper.search.settled();
      await reader.search.settled();
      expect((await reader.search.search(query("伙伴"))).totalCount).toBe(1);
      expect(upstream.count("/api/portal/message/news/12")).toBe(1);

      // A build renames a new file over the index: the reader follows it.
      upstream.routes.set(
        "/api/portal/message/news/list",
        routesOf([item("生态伙伴大会"), { ...item("新的产品发布"), id: 13 }])["/api/portal/message/news/list"],
      );
      upstream.routes.set("/api/portal/message/news/13", { ...item("新的产品发布"), id: 13 });
      await keeper.search.rebuild();
      expect((await reader.search.search(query("产品发布"))).pageDataList.map((hit) => hit.id)).toEqual([13]);

      // The keeper stops: the reader's next refresh keeps the index from then on.
      keeper.search.close();
      await waitUntil(() => !existsSync(`${file}.builder`));
      const walks = upstream.count("/api/portal/message/news/list");
      await reader.search.rebuild();
      expect(upstream.count("/api/portal/message/news/list")).toBe(walks + 1);
    } finally {
      await upstream.close();
    }
  }, 60_000);
});

/** Polls `check`: the keeper lets its lease go once its thread has stopped. */
async function waitUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(check()).toBe(true);
}
