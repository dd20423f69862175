/**
 * The main thread of a page as a mid-range phone runs it: Chromium at 375 px with the CPU
 * slowed 4x by DevTools (Emulation.setCPUThrottlingRate), a first visit on a fresh
 * profile, traced from the navigation until the page has hydrated and its main thread has
 * been free of long tasks for a second. From the trace, counted from the first
 * contentful paint (when the visitor sees the page and may tap it): the longest task on
 * the page's main thread, and the total blocking time (each task's time past 50 ms, as
 * Lighthouse counts it). Each page is loaded five times; the medians count, as one load
 * on a shared machine can be spoilt by a neighbour.
 */
import type { Browser } from "playwright-core";

export const CPU_SLOWDOWN = 4;
export const PHONE_VIEWPORT = { width: 375, height: 812 };
/** A task longer than this blocks input (the RAIL model Lighthouse uses). */
const BLOCKING_AFTER_MS = 50;
const QUIET_MS = 1000;
const QUIET_TIMEOUT_MS = 15_000;
const HYDRATION_TIMEOUT_MS = 30_000;

const TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "loading", "blink.user_timing"];

export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { frame?: string; data?: { documentLoaderURL?: string; isOutermostMainFrame?: boolean; frame?: string } };
}

export interface MainThreadLoad {
  /** The longest task on the page's main thread after the first contentful paint, in ms. */
  longestTaskMs: number;
  totalBlockingMs: number;
  /** Tasks (their part after the first contentful paint) over 50 ms, in ms, in order. */
  longTasksMs: number[];
}

export interface MainThreadResult {
  loads: MainThreadLoad[];
  /** Medians over the loads. */
  longestTaskMs: number;
  totalBlockingMs: number;
}

class IncompleteTrace extends Error {}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** The page's main thread and its top-level tasks, from navigation start to the end of the trace. */
export function mainThreadTasks(events: TraceEvent[], url: string): { tasks: TraceEvent[]; fcp: number } {
  const navigation = events.find(
    (e) => e.name === "navigationStart" && e.args?.data?.isOutermostMainFrame && e.args.data.documentLoaderURL === url,
  );
  if (!navigation) throw new IncompleteTrace(`the trace has no navigation to ${url}`);
  const frame = navigation.args?.frame;
  const fcp = events.find((e) => e.name === "firstContentfulPaint" && e.args?.frame === frame);
  if (!fcp) throw new IncompleteTrace(`the trace has no first contentful paint for ${url}`);
  const tasks: TraceEvent[] = [];
  let end = 0;
  for (const event of events
    .filter((e) => e.pid === navigation.pid && e.tid === navigation.tid && e.ph === "X" && e.name === "RunTask" && e.ts >= navigation.ts)
    .sort((a, b) => a.ts - b.ts)) {
    // Only top-level tasks: a task nested in another is part of it.
    if (event.ts < end) continue;
    tasks.push(event);
    end = event.ts + (event.dur ?? 0);
  }
  return { tasks, fcp: fcp.ts };
}

/**
 * Longest task and total blocking time of one load, from its trace. Both count from the
 * first contentful paint, when the visitor starts to see the page and may tap it: a task
 * that straddles it (the first paint's own) counts with its part after it.
 */
export function mainThreadLoadOf(events: TraceEvent[], url: string): MainThreadLoad {
  const { tasks, fcp } = mainThreadTasks(events, url);
  const shown = tasks.map((task) => (task.ts + (task.dur ?? 0) - Math.max(task.ts, fcp)) / 1000).filter((ms) => ms > 0);
  return {
    longestTaskMs: Math.max(0, ...shown),
    totalBlockingMs: shown.reduce((sum, ms) => sum + Math.max(0, ms - BLOCKING_AFTER_MS), 0),
    longTasksMs: shown.filter((ms) => ms > BLOCKING_AFTER_MS).map(Math.round),
  };
}

/** Resolves once the page has hydrated (polling is cheap next to a page's tasks, and needs no hook in the page). */
const HYDRATED_SCRIPT = `new Promise((resolve, reject) => {
  const started = performance.now();
  const timer = setInterval(() => {
    const hydrated = document.documentElement.dataset.hydrated === "true";
    if (!hydrated && performance.now() - started < ${HYDRATION_TIMEOUT_MS}) return;
    clearInterval(timer);
    if (hydrated) resolve();
    else reject(new Error("the page did not hydrate within ${HYDRATION_TIMEOUT_MS / 1000} s"));
  }, 50);
})`;

/**
 * Resolves once no long task has run for QUIET_MS (or after QUIET_TIMEOUT_MS). Given as
 * source text: the function must reach the page as written, without what the TypeScript
 * loader adds to named functions.
 */
const QUIET_SCRIPT = `new Promise((resolve) => {
  const started = performance.now();
  let last = started;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) last = Math.max(last, entry.startTime + entry.duration);
  });
  observer.observe({ type: "longtask", buffered: true });
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last < ${QUIET_MS} && now - started < ${QUIET_TIMEOUT_MS}) return;
    clearInterval(timer);
    observer.disconnect();
    resolve();
  }, 100);
})`;

/** Records a trace of the whole browser while `run` runs; answers its events. */
async function traced(browser: Browser, run: () => Promise<void>): Promise<TraceEvent[]> {
  const session = await browser.newBrowserCDPSession();
  try {
    // As much as the buffer holds: a page that animates fills a small one before it has hydrated.
    await session.send("Tracing.start", {
      transferMode: "ReturnAsStream",
      traceConfig: { recordMode: "recordAsMuchAsPossible", includedCategories: TRACE_CATEGORIES },
    });
    const outcome = await run().then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    const complete = new Promise<{ stream?: string }>((resolve) => session.once("Tracing.tracingComplete", resolve));
    await session.send("Tracing.end");
    const { stream } = await complete;
    if (outcome) throw outcome.error;
    if (!stream) throw new Error("Chromium returned no trace");
    let text = "";
    for (let eof = false; !eof; ) {
      const chunk = await session.send("IO.read", { handle: stream });
      text += chunk.base64Encoded ? Buffer.from(chunk.data, "base64").toString("utf8") : chunk.data;
      eof = chunk.eof;
    }
    await session.send("IO.close", { handle: stream });
    return (JSON.parse(text) as { traceEvents: TraceEvent[] }).traceEvents;
  } finally {
    await session.detach();
  }
}

/** One cold load of `url` at 375 px with the CPU slowed down, traced; answers the trace's events. */
export async function traceLoad(browser: Browser, url: string): Promise<TraceEvent[]> {
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    return await traced(browser, async () => {
      const response = await page.goto(url, { waitUntil: "load" });
      if (!response?.ok()) throw new Error(`${url} answered ${response?.status()}`);
      // Through the protocol, not page.evaluate: Playwright's helper script would be one more task on the thread measured.
      for (const expression of [HYDRATED_SCRIPT, QUIET_SCRIPT]) {
        const { exceptionDetails } = await cdp.send("Runtime.evaluate", { expression, awaitPromise: true });
        if (exceptionDetails) throw new Error(`${url}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
      }
    });
  } finally {
    await context.close();
  }
}

/** A load whose trace lacks its navigation or first paint (Chromium drops events now and then) is traced again, this often. */
const MAX_INCOMPLETE_TRACES = 2;

export async function measureMainThread(browser: Browser, url: string, loads = 5): Promise<MainThreadResult> {
  const results: MainThreadLoad[] = [];
  let incomplete = 0;
  while (results.length < loads) {
    const events = await traceLoad(browser, url);
    try {
      results.push(mainThreadLoadOf(events, url));
    } catch (err) {
      if (!(err instanceof IncompleteTrace) || ++incomplete > MAX_INCOMPLETE_TRACES) throw err;
    }
  }
  return {
    loads: results,
    longestTaskMs: median(results.map((r) => r.longestTaskMs)),
    totalBlockingMs: median(results.map((r) => r.totalBlockingMs)),
  };
}
