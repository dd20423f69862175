/** The bench's targets judged on its figures: a PASS or FAIL line each (docs/bench.md). */

import type { JsSize } from "./js-size.ts";
import { isBaseline, TARGETS } from "./options.ts";
import type { Results } from "./print.ts";
import { REDIRECT_RULES, type RuleTableFigures } from "./redirect-rows.ts";
import { fixed, hitRatioOf, kb, type Row, type Scenario } from "./rows.ts";
import { COST_DOCUMENTS, type SearchCostRun } from "./search-cost-rows.ts";
import { SEARCH_DOCUMENTS } from "./search-rows.ts";

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** (r): a table of rules loaded in time, and a lookup among them against one among 10 `small`. */
function ruleTableChecks(kind: string, small: string, table: RuleTableFigures["patterns"]): Check[] {
  const lookupRatio = table.lookupNs / table.smallLookupNs;
  return [
    {
      name: `(r) ${REDIRECT_RULES.toLocaleString("en")} ${kind} load in < ${TARGETS.redirectLoadS} s of CPU`,
      ok: table.loadCpuMs < TARGETS.redirectLoadS * 1000,
      detail: `${(table.loadCpuMs / 1000).toFixed(2)} s (${(table.loadMs / 1000).toFixed(2)} s wall)`,
    },
    {
      name: `(r) a lookup among them ≤ ${TARGETS.redirectLookupOverSmall} × one among 10 ${small}`,
      ok: lookupRatio <= TARGETS.redirectLookupOverSmall,
      detail: `${lookupRatio.toFixed(2)} × (${table.lookupNs.toFixed(0)} against ${table.smallLookupNs.toFixed(0)} ns of CPU)`,
    },
  ];
}

export function checksOf({
  rows,
  scenarios,
  crawl,
  missCosts,
  ruleTable,
  search,
  searchCost,
  js,
  checks,
}: Results & { scenarios: Scenario[]; searchCost?: SearchCostRun; js: JsSize; checks: Check[] }): Check[] {
  const rowOf = (id: string) => rows.find((r) => r.id === id);
  const scenarioOf = (id: string) => scenarios.find((s) => s.id === id);
  /** A ratio target, judged only when its row was measured. */
  const ratioCheck = (id: string, name: string, target: number, needsHit: boolean) => {
    const [row, scenario] = [rowOf(id), scenarioOf(id)];
    if (!row || !scenario) return;
    const hit = !needsHit || scenario.cache.endsWith("HIT");
    checks.push({
      name: `(${id}) ${name} ≥ ${target} × (a)`,
      ok: (row.ratio ?? 0) >= target && hit,
      detail: needsHit ? `${fixed(row.ratio)}, ${scenario.cache}` : fixed(row.ratio),
    });
  };
  ratioCheck("c", "page cache hit", TARGETS.pageCacheHit, true);
  ratioCheck("e", "/api/portal cache hit", TARGETS.apiCacheHit, true);
  ratioCheck("b", "SSR, warm data, no page cache", TARGETS.ssrNoPageCache, false);
  const [redirectHit, pageHit] = [rowOf("r"), rowOf("c")];
  if (redirectHit && pageHit) {
    const ratio = redirectHit.reqPerS / pageHit.reqPerS;
    checks.push({
      name: `(r) redirect hit ≥ ${TARGETS.redirectHitOverPageHit} × (c) page cache hit`,
      ok: ratio >= TARGETS.redirectHitOverPageHit && scenarioOf("r")?.cache.startsWith("301") === true,
      detail: `${ratio.toFixed(2)} × (c), ${scenarioOf("r")?.cache}`,
    });
  }
  if (redirectHit && pageHit) {
    const over = redirectHit.peakRssMb - pageHit.peakRssMb;
    checks.push({
      name: `(r) peak RSS with ${REDIRECT_RULES.toLocaleString("en")} rules ≤ (c)'s + ${TARGETS.redirectRulesRssMb} MB`,
      ok: over <= TARGETS.redirectRulesRssMb,
      detail: `${redirectHit.peakRssMb.toFixed(0)} MB, ${over >= 0 ? "+" : ""}${over.toFixed(0)} MB over (c)`,
    });
  }
  if (ruleTable)
    checks.push(
      ...ruleTableChecks("redirect rules", "rules", ruleTable),
      ...ruleTableChecks("pattern rules", "patterns", ruleTable.patterns),
    );
  const [hot, crawled] = [rowOf("k"), scenarioOf("k2")];
  const crawledRow = rowOf("k2");
  if (hot && crawled && crawledRow) {
    const ratio = crawledRow.reqPerS / hot.reqPerS;
    const hits = hitRatioOf(crawled);
    const everyRound = (crawled.crawls ?? []).every((c) => c.keys > 0);
    checks.push(
      {
        name: `(k2) hot set while the crawler walks ≥ ${TARGETS.hotSetUnderCrawler} × (k), the crawler walking in every round`,
        ok: ratio >= TARGETS.hotSetUnderCrawler && everyRound,
        detail: `${ratio.toFixed(2)} × (k)${everyRound ? "" : "; the crawler ran out of keys before the last round"}`,
      },
      {
        name: `(k2) hot set's hit ratio while the crawler walks ≥ ${TARGETS.hotSetHitRatio}`,
        ok: hits >= TARGETS.hotSetHitRatio,
        detail: hits.toFixed(3),
      },
    );
  }
  // Every row but the baselines and the search's own process is a Portal server process (one worker each).
  // (r) holds 100,000 redirect rules, far past a usual site's: judged against (c) below instead.
  const highestRss = rows
    .filter((r) => !isBaseline(r.id) && !["s", "s2", "s3", "r", "r2", "m3"].includes(r.id))
    .reduce<Row | undefined>((a, b) => (a && a.peakRssMb >= b.peakRssMb ? a : b), undefined);
  if (highestRss)
    checks.push({
      name: `peak RSS of every Portal server ≤ ${TARGETS.peakRssMb} MB`,
      ok: highestRss.peakRssMb <= TARGETS.peakRssMb,
      detail: `highest ${highestRss.peakRssMb.toFixed(0)} MB (${highestRss.id})`,
    });
  checks.push({
    name: `home page JavaScript (gzip) < ${TARGETS.homeJsGzipKb} kB`,
    ok: js.gzipBytes < TARGETS.homeJsGzipKb * 1000,
    detail: `${kb(js.gzipBytes)} kB`,
  });
  const [homeMiss, homeRender] = ["m", "m0"].map((id) => missCosts.find((m) => m.id === id)?.cost);
  if (homeMiss && homeRender) {
    const bound = homeRender.cpuMs + TARGETS.homeMissOverRenderMs;
    const all200 = [homeMiss, homeRender].every((c) => c.statuses.get(200) === c.misses);
    checks.push({
      name: `(m) a stored miss of the home page ≤ its render unstored (m0) + ${TARGETS.homeMissOverRenderMs} ms of server CPU, every answer 200`,
      ok: homeMiss.cpuMs <= bound && all200,
      detail: `${homeMiss.cpuMs.toFixed(1)} ms against ${bound.toFixed(1)} ms`,
    });
    checks.push({
      name: `(m0, m) the home page's miss ≤ ${TARGETS.renderMissMs} ms of server CPU unstored, ≤ ${TARGETS.storedMissMs} ms stored`,
      ok: homeRender.cpuMs <= TARGETS.renderMissMs && homeMiss.cpuMs <= TARGETS.storedMissMs,
      detail: `${homeRender.cpuMs.toFixed(1)} ms and ${homeMiss.cpuMs.toFixed(1)} ms`,
    });
  }
  if (search) {
    checks.push(
      {
        name: `(s) search p99 < ${TARGETS.searchP99Ms} ms of CPU per query`,
        ok: search.p99Ms < TARGETS.searchP99Ms,
        detail: `p50 ${search.p50Ms.toFixed(1)} ms, p99 ${search.p99Ms.toFixed(1)} ms`,
      },
      {
        name: `(s) search index build of ${SEARCH_DOCUMENTS} documents < ${TARGETS.searchBuildS} s, RSS growth < ${TARGETS.searchRssGrowthMb} MB`,
        ok: search.buildSeconds < TARGETS.searchBuildS && search.peakRssMb - search.rssBeforeMb < TARGETS.searchRssGrowthMb,
        detail: `${search.buildSeconds.toFixed(1)} s, +${(search.peakRssMb - search.rssBeforeMb).toFixed(0)} MB`,
      },
    );
  }
  if (searchCost) {
    const ratio = searchCost.worstMs / searchCost.ordinaryP50Ms;
    checks.push(
      {
        name: `(s2) worst search ≤ ${TARGETS.searchWorstOverOrdinary} × an ordinary one and < ${TARGETS.searchWorstMs} ms of CPU, ${COST_DOCUMENTS} items`,
        ok: ratio <= TARGETS.searchWorstOverOrdinary && searchCost.worstMs < TARGETS.searchWorstMs,
        detail: `${searchCost.worstMs.toFixed(1)} ms against ${searchCost.ordinaryP50Ms.toFixed(1)} ms: ${ratio.toFixed(1)} ×`,
      },
      {
        name: `(s3) event loop p99 delay while ${COST_DOCUMENTS} items are refreshed < ${TARGETS.searchRefreshDelayP99Ms} ms`,
        ok: searchCost.refreshDelayP99Ms < TARGETS.searchRefreshDelayP99Ms,
        detail: `${searchCost.refreshDelayP99Ms.toFixed(1)} ms (build from nothing: ${searchCost.buildDelayP99Ms.toFixed(1)} ms)`,
      },
    );
  }
  if (crawl)
    checks.push({
      name: `(m3) a crawler's ${crawl.pages.toLocaleString("en")} cold detail pages, every answer 200, peak RSS ≤ ${TARGETS.crawlPeakRssMb} MB`,
      ok: crawl.statuses.get(200) === crawl.pages && crawl.peakRssMb <= TARGETS.crawlPeakRssMb,
      detail: `${crawl.peakRssMb.toFixed(0)} MB; ${crawl.cpuMsPerPage.toFixed(2)} ms of CPU a page`,
    });
  return checks;
}
