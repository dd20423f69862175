/**
 * `npm run bench`: builds, starts production servers with the embedded demo content on
 * 127.0.0.1 pinned to CPU 0, loads them with wrk pinned to CPU 1, and prints one table
 * (req/s, p50/p99 latency, bytes per response, peak RSS, ratio to the baseline) and the
 * home page's JavaScript size, then PASS/FAIL per target. docs/bench.md explains
 * how to read it.
 *
 * Every scenario has its own server process, so its peak RSS is its own. wrk scenarios
 * are warmed up, then measured in short interleaved rounds (every other round in reverse
 * order) so drift and noise reach them all alike; each figure is the median of its rounds.
 *
 * Options: --strict (exit 1 when a target is missed), --no-build, --duration=S (per
 * scenario per round, default 3), --warmup=S (default 3), --rounds=N (default 6),
 * --connections=N (default 50), --gzip (every request accepts gzip; the baseline then
 * writes the gzipped home page), --log-level=LEVEL (the servers', default info),
 * --only=ID,ID (only those rows, beside the baseline (a): e.g. --only=g,h; --only=s for the search rows alone;
 * --only=c,r,r2 for the redirect rows beside the page-cache hit,
 * --only=s2,s3 for the worst search against an ordinary one, and the event loop during a refresh,
 * --only=m,m3 for the misses and the crawler, --only=j for the home page's JavaScript as served with two languages
 * and with ten).
 *
 * The rows are measured in modules of their own: wrk-rows.ts, miss-rows.ts, crawl-row.ts, process-rows.ts;
 * checks.ts judges them and print.ts prints them.
 */
import path from "node:path";
import { pinSelf } from "../harness/commands.ts";
import { PROJECT_ROOT } from "../server/project-root.ts";
import { benchContext, build, cleanUp, ensureTools } from "./bench-servers.ts";
import { checksOf } from "./checks.ts";
import { type CrawlFigures, measureCrawlRow } from "./crawl-row.ts";
import { startPhotoSource } from "./image-rows.ts";
import { homePageJs } from "./js-size.ts";
import { measureBurstRows, measureMissRows } from "./miss-rows.ts";
import { log, options, wanted } from "./options.ts";
import { printResults } from "./print.ts";
import { measureResizeRows, measureSearchRows } from "./process-rows.ts";
import { measureRuleTable } from "./redirect-rows.ts";
import { measureServedJs } from "./served-js.ts";
import { measureWrkRows } from "./wrk-rows.ts";

async function main(): Promise<void> {
  const benchStarted = performance.now();
  const { pinned } = ensureTools();
  const ctx = await benchContext(pinned);
  // This process (the burst client, the stand-in upstream) stays off the servers' CPU.
  if (ctx.loadCpus) pinSelf(ctx.loadCpus);
  if (options.build) build();
  const js = homePageJs(path.join(PROJECT_ROOT, "dist/client"));

  log("starting the servers");
  const photo = wanted("g", "h", "h2") ? await startPhotoSource() : undefined;
  const { rows, scenarios } = await measureWrkRows(ctx, photo);
  const bursts = wanted("f", "f2") ? await measureBurstRows(ctx) : { rows: [], checks: [] };
  rows.push(...bursts.rows);
  const missCosts = wanted("m", "m2") ? await measureMissRows(ctx) : [];
  let crawl: CrawlFigures | undefined;
  if (wanted("m3")) {
    const crawled = await measureCrawlRow(ctx);
    rows.push(crawled.row);
    crawl = crawled.figures;
  }
  if (photo && wanted("h", "h2")) rows.push(...(await measureResizeRows(ctx, photo)));
  await photo?.close();
  // (r) The rule table in this process: 100,000 rules loaded, and a lookup's CPU against one among 10 rules.
  const ruleTable = wanted("r") ? measureRuleTable() : undefined;
  const searched = measureSearchRows(ctx);
  rows.push(...searched.rows);
  const served = wanted("j") ? await measureServedJs(ctx) : [];

  const results = { pinned, rows, missCosts, search: searched.search, ruleTable, js, crawl };
  printResults(results);
  const checks = checksOf({ ...results, scenarios, searchCost: searched.searchCost, checks: bursts.checks });
  const [withTwo, withTen] = served;
  if (withTwo && withTen) {
    const kb = (js: typeof withTwo) => `${(js.gzipBytes / 1000).toFixed(1)} kB in ${js.files} files`;
    console.log(`home page JavaScript as served (gzip): ${kb(withTwo)} with two languages, ${kb(withTen)} with ten`);
    checks.push({
      name: "(j) home page JavaScript the same with ten languages as with two",
      ok: withTen.gzipBytes === withTwo.gzipBytes && withTen.files === withTwo.files,
      detail: `${withTwo.gzipBytes} B and ${withTen.gzipBytes} B`,
    });
  }
  const errored = rows.filter((r) => r.errors > 0);
  console.log("");
  for (const check of checks) console.log(`${check.ok ? "PASS" : "FAIL"}  ${check.name}: ${check.detail}`);
  if (errored.length > 0)
    console.log(`note: errors (non-2xx, timeouts or socket errors) in ${errored.map((r) => `${r.id} ${r.errors}`).join(", ")}`);
  console.log(`(bench took ${((performance.now() - benchStarted) / 1000).toFixed(0)} s)`);

  await cleanUp();
  const failed = checks.some((c) => !c.ok);
  process.exit(options.strict && failed ? 1 : 0);
}

main().catch(async (err: unknown) => {
  log(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  await cleanUp();
  process.exit(2);
});
