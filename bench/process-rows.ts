/**
 * The bench's rows measured apart from wrk: (h) cold resizes on a fresh server, and (s, s2, s3) search in a
 * process of its own on the servers' CPU.
 */

import path from "node:path";
import type { BenchContext } from "./bench-servers.ts";
import { percentile } from "./burst.ts";
import { cpuMsOf, waitIdle } from "./cpu-time.ts";
import { coldResizes, PHOTO_PATH, type PhotoSource } from "./image-rows.ts";
import { log, only, wanted } from "./options.ts";
import type { Row } from "./rows.ts";
import { COST_DOCUMENTS, measureSearchCost, type SearchCostRun } from "./search-cost-rows.ts";
import { measureSearch, SEARCH_DOCUMENTS, SEARCH_QUERIES, type SearchFiguresRun } from "./search-rows.ts";

/** (h) and (h2): cold resizes of every width and quality of the photograph, one at a time. */
export async function measureResizeRows({ startBenchServer, dir }: BenchContext, photo: PhotoSource): Promise<Row[]> {
  const rows: Row[] = [];
  const photoUrl = photo.url + PHOTO_PATH;
  const imageEnv = (name: string) => ({ IMAGE_CACHE_DIR: path.join(dir, `images-${name}`), IMAGE_HOSTS: photo.url });
  const resizer = await startBenchServer("h", imageEnv("h"));
  for (const [id, format, accept] of [
    ["h", "WebP", "image/webp,*/*"],
    ["h2", "AVIF", "image/avif,image/webp,*/*"],
  ] as const) {
    if (!wanted(id)) continue;
    log(`(${id}) cold resizes to ${format}`);
    await waitIdle(resizer.pid);
    const cpuBefore = cpuMsOf(resizer.pid);
    const run = await coldResizes(resizer.origin, photoUrl, accept);
    const cpuMs = cpuMsOf(resizer.pid) - cpuBefore;
    rows.push({
      id,
      label: `/portal/_img cold resize to ${format}, 1920 px JPEG source, ${run.count} variants`,
      reqPerS: run.count / (run.wallMs / 1000),
      p50Ms: percentile(run.latenciesMs, 50),
      p99Ms: percentile(run.latenciesMs, 99),
      bytes: run.bytesPerResponse,
      peakRssMb: resizer.peakRssMb(),
      cache: `resizes/s (fetch, resize, encode); server CPU ${(cpuMs / run.count).toFixed(0)} ms per resize`,
      errors: run.failures,
    });
  }
  return rows;
}

/** (s), (s2) and (s3). */
export function measureSearchRows({ serverCpus }: BenchContext): { rows: Row[]; search?: SearchFiguresRun; searchCost?: SearchCostRun } {
  const rows: Row[] = [];
  let search: SearchFiguresRun | undefined;
  if (only?.has("s") || only === undefined) {
    log(`(s) search index of ${SEARCH_DOCUMENTS} documents, ${SEARCH_QUERIES} queries`);
    search = measureSearch(serverCpus);
    rows.push({
      id: "s",
      label: `search computed (miss), ${SEARCH_DOCUMENTS} documents, ${SEARCH_QUERIES} distinct queries; CPU ms per query`,
      reqPerS: 1000 / search.meanMs,
      p50Ms: search.p50Ms,
      p99Ms: search.p99Ms,
      bytes: search.meanBytes,
      peakRssMb: search.peakRssMb,
      cache: `wall p50/p99 ${search.wallP50Ms.toFixed(1)}/${search.wallP99Ms.toFixed(1)} ms; ${search.noResult} found nothing`,
      errors: 0,
    });
  }

  // (s2, s3) Search's bounded cost and the refresh beside the event loop, in a process of their own on one core.
  let searchCost: SearchCostRun | undefined;
  if (only === undefined || only.has("s2") || only.has("s3")) {
    log(`(s2, s3) worst search against an ordinary one on ${COST_DOCUMENTS} items; the event loop while they are refreshed`);
    searchCost = measureSearchCost(serverCpus);
    const ratio = searchCost.worstMs / searchCost.ordinaryP50Ms;
    rows.push(
      {
        id: "s2",
        label: `search, worst query under the input limits vs ordinary (p50 of 200), ${COST_DOCUMENTS} items; CPU ms`,
        reqPerS: 1000 / searchCost.worstMs,
        p50Ms: searchCost.ordinaryP50Ms,
        p99Ms: searchCost.worstMs,
        bytes: 0,
        peakRssMb: 0,
        cache: `worst ${ratio.toFixed(1)} × ordinary: "${searchCost.worstQuery.slice(0, 24)}…"`,
        errors: 0,
      },
      {
        id: "s3",
        label: `search index of ${COST_DOCUMENTS} items built, then refreshed unchanged: event loop delay p99 ms`,
        reqPerS: 0,
        p50Ms: searchCost.buildDelayP99Ms,
        p99Ms: searchCost.refreshDelayP99Ms,
        bytes: 0,
        peakRssMb: 0,
        cache: `p50 column: build (${searchCost.buildSeconds.toFixed(1)} s, max ${searchCost.buildDelayMaxMs.toFixed(0)} ms); p99 column: refresh (${searchCost.refreshSeconds.toFixed(1)} s, max ${searchCost.refreshDelayMaxMs.toFixed(0)} ms)`,
        errors: 0,
      },
    );
  }
  return { rows, search, searchCost };
}
