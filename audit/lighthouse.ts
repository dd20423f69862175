/**
 * Lighthouse in its default configuration (a mobile device, simulated slow 4G and a 4x
 * slower CPU) against Debian's Chromium, started here with a DevTools port and the
 * same flags as the browser tests; its phone's screen is the 375 px one every other
 * phone check uses (Lighthouse's own is 412 px), at 2x as the main-thread runs.
 */
import lighthouse from "lighthouse";
import { spawnChromium } from "../harness/chromium.ts";
import { median, PHONE_VIEWPORT } from "./main-thread.ts";

const SCREEN = { mobile: true, ...PHONE_VIEWPORT, deviceScaleFactor: 2, disabled: false };

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = (typeof CATEGORIES)[number];

export interface LighthouseResult {
  /** 0 to 100 per category. */
  scores: Record<Category, number>;
  /** The performance metrics, in ms (CLS unitless). */
  metrics: { fcp: number; lcp: number; tbt: number; cls: number; si: number };
  /** Audits that lost points outside performance: id and title. */
  failing: { category: Category; id: string; title: string }[];
  runs: number;
}

/** Runs that end in a Lighthouse runtime error are retried, this many times per page. */
const MAX_BROKEN_RUNS = 2;

interface DebuggableChromium {
  port: number;
  close(): Promise<void>;
}

async function launchDebuggableChromium(): Promise<DebuggableChromium> {
  const { child, close } = await spawnChromium(["--remote-debugging-port=0"], ["ignore", "ignore", "pipe"]);
  const port = await new Promise<number>((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`Chromium did not open a DevTools port:\n${seen}`)), 30_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(seen);
      if (found) {
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited with ${code}:\n${seen}`));
    });
  }).catch(async (err) => {
    await close();
    throw err;
  });
  // Keep draining its log so Chromium never blocks on a full pipe.
  child.stderr?.resume();
  return { port, close };
}

async function runOnce(url: string, port: number): Promise<LighthouseResult> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
    screenEmulation: SCREEN,
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const score = (category: Category) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const failing = CATEGORIES.filter((c) => c !== "performance").flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ({ category, id: ref.id, title: lhr.audits[ref.id]?.title ?? ref.id })),
  );
  return {
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, score(c)])) as Record<Category, number>,
    metrics: {
      fcp: metric("first-contentful-paint"),
      lcp: metric("largest-contentful-paint"),
      tbt: metric("total-blocking-time"),
      cls: metric("cumulative-layout-shift"),
      si: metric("speed-index"),
    },
    failing,
    runs: 1,
  };
}

/**
 * Each page `runs` times (three by default); the median of the runs counts, category by
 * category and metric by metric: one run on a shared machine can be spoilt by a neighbour
 * either way, and the best of several would pass a page that fails as often as not.
 * A page whose median performance is under `floor` gets up to `runs` more: a slow minute of
 * the machine spoils every run in it, where a real regression shows in all of them.
 */
export async function runLighthouse(urls: string[], runs = 3, floor = 0): Promise<Map<string, LighthouseResult>> {
  const chromium = await launchDebuggableChromium();
  const results = new Map<string, LighthouseResult>();
  try {
    for (const url of urls) {
      const done: LighthouseResult[] = [];
      let broken = 0;
      const enough = () => done.length >= runs * 2 || (done.length >= runs && median(done.map((run) => run.scores.performance)) >= floor);
      while (!enough()) {
        try {
          done.push(await runOnce(url, chromium.port));
        } catch (err) {
          // Lighthouse sometimes loses its trace (NO_NAVSTART, NO_FCP): that run did not measure anything.
          if (++broken > MAX_BROKEN_RUNS) throw err;
          process.stderr.write(`lighthouse run failed, again: ${err instanceof Error ? err.message : String(err)}\n`);
        }
      }
      results.set(url, medianOf(done));
    }
  } finally {
    await chromium.close();
  }
  return results;
}

/** Each score and metric as the median of the runs; the findings of the run whose performance is the median. */
function medianOf(runs: LighthouseResult[]): LighthouseResult {
  const byPerformance = [...runs].sort((a, b) => a.scores.performance - b.scores.performance);
  const middle = byPerformance[Math.floor(byPerformance.length / 2)] as LighthouseResult;
  const metric = (name: keyof LighthouseResult["metrics"]) => median(runs.map((run) => run.metrics[name]));
  return {
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, median(runs.map((run) => run.scores[c]))])) as Record<Category, number>,
    metrics: { fcp: metric("fcp"), lcp: metric("lcp"), tbt: metric("tbt"), cls: metric("cls"), si: metric("si") },
    failing: middle.failing,
    runs: runs.length,
  };
}
