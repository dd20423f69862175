/**
 * The audit's targets and its PASS or FAIL lines for Lighthouse and the main thread: pure
 * functions of the measured results, so the gate itself can be tested without a browser.
 */
import type { Category, LighthouseResult } from "./lighthouse.ts";
import type { MainThreadResult } from "./main-thread.ts";

/** Lighthouse's targets, on each page's median run: every page must reach them. */
export const LIGHTHOUSE_TARGETS: Record<Category, number> = {
  performance: 95,
  accessibility: 100,
  "best-practices": 100,
  seo: 100,
};
/** The main thread's targets, on the medians of a page's loads: no task over this... */
export const LONGEST_TASK_MS = 100;
/** ...and a total blocking time under this. */
export const TOTAL_BLOCKING_MS = 150;

export interface Verdict {
  pass: boolean;
  text: string;
}

type MainThreadMedians = Pick<MainThreadResult, "longestTaskMs" | "totalBlockingMs">;

/** Each main-thread target: what it measures, how it is read from a page's medians, and whether a median (in whole ms, as printed) meets it. */
const MAIN_THREAD_TARGETS = [
  {
    what: "longest task",
    pick: (result: MainThreadMedians) => Math.round(result.longestTaskMs),
    target: `${LONGEST_TASK_MS} ms or less`,
    meets: (ms: number) => ms <= LONGEST_TASK_MS,
  },
  {
    what: "total blocking time",
    pick: (result: MainThreadMedians) => Math.round(result.totalBlockingMs),
    target: `under ${TOTAL_BLOCKING_MS} ms`,
    meets: (ms: number) => ms < TOTAL_BLOCKING_MS,
  },
];

/** Whether one page's main thread (its medians) meets both targets. */
export const meetsMainThreadTargets = (result: MainThreadMedians): boolean =>
  MAIN_THREAD_TARGETS.every(({ pick, meets }) => meets(pick(result)));

/** One line per category: the lowest page's median against the target; no page measured is a failure. */
export function lighthouseVerdicts(results: Pick<LighthouseResult, "scores">[]): Verdict[] {
  return (Object.keys(LIGHTHOUSE_TARGETS) as Category[]).map((category) => {
    const target = LIGHTHOUSE_TARGETS[category];
    const scores = results.map((result) => result.scores[category]);
    const lowest = scores.length ? Math.min(...scores) : 0;
    const wanted = target === 100 ? "100" : `${target} or more`;
    const runs = category === "performance" ? ", median of each page's runs" : "";
    return {
      pass: scores.length > 0 && lowest >= target,
      text: `lighthouse ${category}: lowest ${lowest} on ${scores.length} pages${runs} (target ${wanted})`,
    };
  });
}

/** One line per target: the highest page median against it; no page measured is a failure. */
export function mainThreadVerdicts(results: MainThreadMedians[]): Verdict[] {
  return MAIN_THREAD_TARGETS.map(({ what, pick, target, meets }) => {
    const medians = results.map(pick);
    return {
      pass: medians.length > 0 && medians.every(meets),
      text: `main thread ${what}: highest median ${Math.max(0, ...medians)} ms on ${results.length} pages (target ${target})`,
    };
  });
}
