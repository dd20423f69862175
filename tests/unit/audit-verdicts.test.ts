import { describe, expect, it } from "vitest";
import { type MainThreadLoad, mainThreadLoadOf, medianOfLoads } from "../../audit/main-thread.ts";
import { lighthouseVerdicts, mainThreadVerdicts, meetsMainThreadTargets } from "../../audit/verdicts.ts";

const scores = (performance: number, accessibility = 100, bestPractices = 100, seo = 100) => ({
  scores: { performance, accessibility, "best-practices": bestPractices, seo },
});
const passed = (verdicts: { pass: boolean }[]) => verdicts.map(({ pass }) => pass);

describe("a load's main thread, counted from the first contentful paint", () => {
  it("ignores tasks before the paint, counts a task across it by its part after it, and sums each task's time past 50 ms", () => {
    const load = mainThreadLoadOf({
      fcp: 1000,
      // before the paint; across it (130 ms after it); after it (70 ms); short (40 ms)
      tasks: [
        [200, 400],
        [900, 230],
        [1500, 70],
        [2000, 40],
      ],
    });
    expect(load).toEqual({ longestTaskMs: 130, totalBlockingMs: 80 + 20, longTasksMs: [130, 70] });
  });

  it("reports nothing blocking when no task after the paint is long", () => {
    expect(mainThreadLoadOf({ fcp: 500, tasks: [[100, 300]] })).toEqual({ longestTaskMs: 0, totalBlockingMs: 0, longTasksMs: [] });
  });

  it("refuses a load that never painted, rather than calling it free", () => {
    expect(() => mainThreadLoadOf({ tasks: [[100, 300]] })).toThrow(/no first contentful paint/);
  });
});

describe("a page's loads", () => {
  const loadsOf = (longest: number[]) => {
    let next = 0;
    return async (): Promise<MainThreadLoad> => {
      const ms = longest[next++] ?? Number.NaN;
      return { longestTaskMs: ms, totalBlockingMs: Math.max(0, ms - 50), longTasksMs: [] };
    };
  };

  it("stops at five when their medians meet the targets, one slow load among them", async () => {
    const result = await medianOfLoads(loadsOf([60, 400, 70, 80, 90, 999]), meetsMainThreadTargets);
    expect(result.loads).toHaveLength(5);
    expect(result.longestTaskMs).toBe(80);
  });

  it("takes five more when the medians miss, and judges on all ten", async () => {
    // A slow minute: four of the first five loads over 100 ms, the next five fast.
    const result = await medianOfLoads(loadsOf([120, 130, 140, 60, 150, 60, 70, 80, 70, 60]), meetsMainThreadTargets);
    expect(result.loads).toHaveLength(10);
    expect(result.longestTaskMs).toBe(75);
    expect(meetsMainThreadTargets(result)).toBe(true);
  });

  it("still misses after ten loads when every load is slow: a regression is not measured away", async () => {
    const result = await medianOfLoads(loadsOf(Array.from({ length: 12 }, (_, i) => 140 + i)), meetsMainThreadTargets);
    expect(result.loads).toHaveLength(10);
    expect(meetsMainThreadTargets(result)).toBe(false);
  });
});

describe("the audit's main-thread gate", () => {
  it("passes at the targets and fails just past them, in the whole milliseconds it prints", () => {
    expect(passed(mainThreadVerdicts([{ longestTaskMs: 100.4, totalBlockingMs: 149.4 }]))).toEqual([true, true]);
    expect(passed(mainThreadVerdicts([{ longestTaskMs: 100.6, totalBlockingMs: 149.6 }]))).toEqual([false, false]);
  });

  it("fails when one page of several misses, naming the highest median", () => {
    const [longest, blocking] = mainThreadVerdicts([
      { longestTaskMs: 40, totalBlockingMs: 0 },
      { longestTaskMs: 129, totalBlockingMs: 110 },
      { longestTaskMs: 70, totalBlockingMs: 20 },
    ]);
    expect(longest).toEqual({ pass: false, text: "main thread longest task: highest median 129 ms on 3 pages (target 100 ms or less)" });
    expect(blocking?.pass).toBe(true);
  });

  it("fails when no page was measured", () => {
    expect(passed(mainThreadVerdicts([]))).toEqual([false, false]);
  });
});

describe("the audit's Lighthouse gate", () => {
  it("passes performance at 95 on every page and fails it at 94 on one", () => {
    expect(passed(lighthouseVerdicts([scores(99), scores(95)]))).toEqual([true, true, true, true]);
    const [performance, ...others] = lighthouseVerdicts([scores(99), scores(94)]);
    expect(performance).toEqual({
      pass: false,
      text: "lighthouse performance: lowest 94 on 2 pages, median of each page's runs (target 95 or more)",
    });
    expect(passed(others)).toEqual([true, true, true]);
  });

  it("wants 100 in accessibility, best practices and SEO", () => {
    expect(passed(lighthouseVerdicts([scores(99, 99, 100, 100), scores(99, 100, 100, 98)]))).toEqual([true, false, true, false]);
  });

  it("fails every category when no page was measured", () => {
    expect(passed(lighthouseVerdicts([]))).toEqual([false, false, false, false]);
  });
});
