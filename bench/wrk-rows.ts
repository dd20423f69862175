/**
 * The bench's wrk rows: the servers of every scenario started and warmed, the baselines writing the home page's
 * bytes, then interleaved rounds of wrk against each, and what each answer was served as.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { ServerProcess } from "../harness/server-process.ts";
import { runWrk, type WrkResult } from "../harness/wrk.ts";
import { PROJECT_ROOT } from "../server/project-root.ts";
import { imageUrl } from "../shared/image-url.ts";
import { type BenchContext, rawGet } from "./bench-servers.ts";
import { cpuMsOf, cpuTimesOf } from "./cpu-time.ts";
import { crawlerOf } from "./crawler.ts";
import { PHOTO_PATH, type PhotoSource } from "./image-rows.ts";
import {
  API_PATH,
  CRAWL,
  CRAWL_CACHE_MB,
  HOME_PATH,
  HOT_SET_SCRIPT,
  isBaseline,
  log,
  options,
  requestHeaders,
  SERVER_CPU,
  wanted,
} from "./options.ts";
import { REDIRECT_HIT_PATH, REDIRECT_PATTERN_PATH, REDIRECT_RULES, redirectRulesCsv } from "./redirect-rows.ts";
import { hotSetServedAs, merge, type Row, rate, type Scenario } from "./rows.ts";

export async function measureWrkRows(ctx: BenchContext, photo: PhotoSource | undefined): Promise<{ rows: Row[]; scenarios: Scenario[] }> {
  const { dir, pinned, loadCpus, startBenchServer } = ctx;
  const photoUrl = photo ? photo.url + PHOTO_PATH : "";
  const imageEnv = (name: string) => ({ IMAGE_CACHE_DIR: path.join(dir, `images-${name}`), IMAGE_HOSTS: photo?.url ?? "" });
  const startWanted = (ids: string[], name: string, extra: Record<string, string>) =>
    wanted(...ids) ? startBenchServer(name, extra) : Promise.resolve(undefined);
  // (c) always runs: the baselines write its home page's bytes.
  const rulesFile = path.join(dir, "redirects.csv");
  await writeFile(rulesFile, redirectRulesCsv(REDIRECT_RULES));
  const [ssrHome, cachedHome, ssrNews, cachedNews, api, image, hotSet, redirects] = await Promise.all([
    startWanted(["b", "b1"], "b", { PAGE_CACHE: "off" }),
    startBenchServer("c", { PAGE_CACHE: "on" }),
    startWanted(["d"], "d", { PAGE_CACHE: "off" }),
    startWanted(["d2"], "d2", { PAGE_CACHE: "on" }),
    startWanted(["e"], "e", { PAGE_CACHE: "on" }),
    startWanted(["g"], "g", imageEnv("g")),
    // The default miss budget, as deployed: the crawler is one client, and the hot set's hits are never charged.
    startWanted(["k", "k2"], "k", { PAGE_CACHE: "on", CACHE_MAX_MB: CRAWL_CACHE_MB, MISS_RATE_PER_MIN: "600" }),
    startWanted(["r", "r2"], "r", { PAGE_CACHE: "on", REDIRECTS_FILE: rulesFile }),
  ]);
  for (const p of redirects ? [REDIRECT_HIT_PATH, REDIRECT_PATTERN_PATH] : []) {
    const res = await rawGet((redirects as ServerProcess).origin + p, {});
    if (res.status !== 301) throw new Error(`r: GET ${p} answered ${res.status}, not a redirect`);
  }
  // One WebP variant of the photograph at 640 px, made once before the runs: (g) measures it cached.
  const IMAGE_PATH_640 = imageUrl(photoUrl, 640);
  const imageHeaders = { Accept: "image/webp,*/*" };
  const list = JSON.parse(
    (await rawGet(`${cachedHome.origin}/api/portal/message/news/list?pageIndex=0&pageMaxCount=1`, {})).body.toString(),
  ) as {
    data: { pageDataList: { id: number }[] };
  };
  const newsId = list.data.pageDataList[0]?.id;
  if (newsId === undefined) throw new Error("the demo site has no news");
  const newsPath = `/portal/message/news/${newsId}`;

  // Warm the data (and page) caches, then take the home page's bytes for the baseline.
  for (const [server, p, headers] of [
    [ssrHome, HOME_PATH, requestHeaders],
    [cachedHome, HOME_PATH, requestHeaders],
    [ssrNews, newsPath, requestHeaders],
    [cachedNews, newsPath, requestHeaders],
    [api, API_PATH, requestHeaders],
    [image, IMAGE_PATH_640, imageHeaders],
  ] as const) {
    if (!server) continue;
    for (let i = 0; i < 3; i++) {
      const res = await rawGet(server.origin + p, headers);
      if (res.status !== 200) throw new Error(`${server.name}: GET ${p} answered ${res.status}`);
    }
  }
  const home = await rawGet(cachedHome.origin + HOME_PATH);
  const bodyFile = path.join(dir, "home.body");
  await writeFile(bodyFile, home.body);
  /** A bare node:http server writing the home page's bytes with these headers, on the servers' CPU. */
  const startBaseline = async (name: string, headers: [string, string][]) => {
    const headersFile = path.join(dir, `${name}.headers.json`);
    await writeFile(headersFile, JSON.stringify(headers));
    const server = await ctx.startPinned(name, [path.join(PROJECT_ROOT, "bench/baseline-server.mjs"), bodyFile, headersFile]);
    if (!(await rawGet(server.origin + HOME_PATH)).body.equals(home.body))
      throw new Error(`baseline ${name} does not write the home page's bytes`);
    return server;
  };
  const contentHeaders = Object.entries(home.headers)
    .filter(([name]) => name === "content-type" || name === "content-encoding")
    .map(([name, value]): [string, string] => [name, String(value)]);
  // Everything the page cache sent but what Node adds itself (date, connection, length).
  const pageHeaders = Object.entries(home.headers)
    .filter(([name]) => !["date", "connection", "keep-alive", "content-length", "transfer-encoding"].includes(name))
    .map(([name, value]): [string, string] => [name, String(value)]);
  const baseline = await startBaseline("a", contentHeaders);
  const headedBaseline = await startBaseline("a2", pageHeaders);

  const candidates: (Omit<Scenario, "server"> & { server: ServerProcess | undefined })[] = [
    { id: "a", label: "baseline: bare node:http, home page bytes", server: baseline, path: HOME_PATH, runs: [], usage: [], cache: "" },
    {
      id: "a2",
      label: `bare node:http, home page bytes, its ${pageHeaders.length} headers`,
      server: headedBaseline,
      path: HOME_PATH,
      runs: [],
      usage: [],
      cache: "",
    },
    { id: "b", label: "home SSR, warm data, no page cache", server: ssrHome, path: HOME_PATH, runs: [], usage: [], cache: "" },
    // One request at a time: every answer is its own render (with many connections, requests that arrive together share one).
    {
      id: "b1",
      label: "home SSR, no page cache, 1 connection",
      server: ssrHome,
      path: HOME_PATH,
      runs: [],
      usage: [],
      cache: "",
      connections: 1,
    },
    { id: "c", label: "home, page cache", server: cachedHome, path: HOME_PATH, runs: [], usage: [], cache: "" },
    { id: "d", label: "news detail SSR, warm data, no page cache", server: ssrNews, path: newsPath, runs: [], usage: [], cache: "" },
    { id: "d2", label: "news detail, page cache", server: cachedNews, path: newsPath, runs: [], usage: [], cache: "" },
    { id: "e", label: "/api/portal cache hit", server: api, path: API_PATH, runs: [], usage: [], cache: "" },
    {
      id: "r",
      label: `redirect hit, exact rule among ${REDIRECT_RULES.toLocaleString("en")}`,
      server: redirects,
      path: REDIRECT_HIT_PATH,
      runs: [],
      usage: [],
      cache: "",
    },
    {
      id: "r2",
      label: "redirect hit, a pattern among 1,000",
      server: redirects,
      path: REDIRECT_PATTERN_PATH,
      runs: [],
      usage: [],
      cache: "",
    },
    {
      id: "g",
      label: "/portal/_img cached variant (640 px WebP)",
      server: image,
      path: IMAGE_PATH_640,
      runs: [],
      usage: [],
      cache: "",
      headers: imageHeaders,
    },
    {
      id: "k",
      label: "hot set: 26 pages and API answers, 16 MB caches",
      server: hotSet,
      path: HOME_PATH,
      requests: HOT_SET_SCRIPT,
      runs: [],
      usage: [],
      cache: "",
    },
    {
      id: "k2",
      label: `hot set while a crawler walks new keys (${CRAWL.connections} connections)`,
      server: hotSet,
      path: HOME_PATH,
      requests: HOT_SET_SCRIPT,
      crawler: hotSet ? crawlerOf(hotSet.origin, CRAWL) : undefined,
      crawls: [],
      runs: [],
      usage: [],
      cache: "",
    },
  ];
  const scenarios = candidates.filter((s): s is Scenario => s.server !== undefined && wanted(s.id));
  const wrk = (s: Scenario, durationS: number) =>
    runWrk({
      url: s.server.origin + s.path,
      durationS,
      connections: s.connections ?? options.connections,
      headers: { ...requestHeaders, ...s.headers },
      requests: s.requests,
      cpus: loadCpus,
    });
  /** A measured run, with how busy the servers' CPU was and with whom. */
  const measure = async (s: Scenario) => {
    const cpu = Number(SERVER_CPU);
    const walk = s.crawler?.walk();
    await walk?.steady;
    const [cpuBefore, serverBefore] = [cpuTimesOf(cpu), cpuMsOf(s.server.pid)];
    s.runs.push(await wrk(s, options.durationS));
    if (walk) s.crawls?.push(await walk.stop());
    const [cpuAfter, serverAfter] = [cpuTimesOf(cpu), cpuMsOf(s.server.pid)];
    const elapsed = cpuAfter.totalMs - cpuBefore.totalMs;
    const server = serverAfter - serverBefore;
    if (pinned && elapsed > 0) {
      s.usage.push({
        serverPct: (server / elapsed) * 100,
        othersPct: (Math.max(0, cpuAfter.busyMs - cpuBefore.busyMs - server) / elapsed) * 100,
      });
    }
  };

  const perRun = options.durationS * options.rounds + options.warmupS;
  log(
    `measuring ${scenarios.length} scenarios: ${options.warmupS} s warm-up, ${options.rounds} × ${options.durationS} s (about ${perRun * scenarios.length} s)`,
  );
  if (options.warmupS > 0) for (const s of scenarios) await wrk(s, options.warmupS);
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? scenarios : [...scenarios].reverse();
    for (const s of order) {
      await measure(s);
      log(`  round ${round + 1} ${s.id}: ${rate(s.runs.at(-1) as WrkResult).toFixed(0)} req/s`);
    }
  }
  // What the measured responses were: the cache header of one more request after the runs.
  // An entry may have expired while other scenarios ran (STALE, refreshed in the
  // background): then ask again until it says HIT, and show the sequence.
  for (const s of scenarios) {
    if (isBaseline(s.id)) continue;
    if (s.requests) {
      s.cache = hotSetServedAs(s);
      continue;
    }
    if (s.id === "r" || s.id === "r2") {
      const res = await rawGet(s.server.origin + s.path, {});
      s.cache = `${res.status} to ${res.headers.location}`;
      continue;
    }
    const api = s.path.startsWith("/api/") || s.headers !== undefined;
    const seen: string[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      const value = (await rawGet(s.server.origin + s.path, { ...requestHeaders, ...s.headers })).headers[api ? "x-cache" : "x-page-cache"];
      seen.push(typeof value === "string" ? value : "absent");
      if (value === "HIT" || value === undefined) break;
    }
    s.cache = `${api ? "X-Cache" : "X-Page-Cache"}: ${seen.join("→")}`;
  }

  // The table.
  const base = merge(scenarios[0] as Scenario, baseline);
  const rows: Row[] = scenarios.map((s) => {
    const row = merge(s, s.server);
    return { ...row, ratio: row.reqPerS / base.reqPerS };
  });
  return { rows, scenarios };
}
