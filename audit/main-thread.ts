/**
 * The main thread of a page as a mid-range phone runs it: Chromium at 375 px with the CPU
 * slowed 4x by DevTools (Emulation.setCPUThrottlingRate), a first visit on a fresh
 * profile, until the page has hydrated and its main thread has been free of long tasks
 * for a second. The page itself reports its tasks over 50 ms (the Long Tasks API, as
 * field measurements of total blocking time do) and its first contentful paint; counted
 * from that paint (when the visitor sees the page and may tap it): the longest task, and
 * the total blocking time (each task's time past 50 ms, as Lighthouse counts it). Each
 * page is loaded five times; the medians count, as one load on a shared machine can be
 * spoilt by a neighbour; a page whose medians miss a target is loaded five times more
 * (medianOfLoads).
 *
 * The page is driven over a bare protocol pipe (cdp-pipe.ts) with only the emulation and
 * page domains: with the Runtime domain on, as under Playwright or an open DevTools,
 * V8 spends 200-400 ms (4x) on stack traces at load that a visitor's browser never does.
 */
import type { CdpBrowser } from "./cdp-pipe.ts";

export const CPU_SLOWDOWN = 4;
export const PHONE_VIEWPORT = { width: 375, height: 812 };
/** A task longer than this blocks input (the RAIL model Lighthouse uses). */
const BLOCKING_AFTER_MS = 50;
const QUIET_MS = 1000;
const QUIET_TIMEOUT_MS = 15_000;
const HYDRATION_TIMEOUT_MS = 30_000;

export interface MainThreadLoad {
  /** The longest task after the first contentful paint, in ms (0 when none took over 50 ms). */
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

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** What the page records from its first script on: its long tasks (start, duration) and its first contentful paint. */
const RECORDER_SCRIPT = `(() => {
  const seen = { tasks: [], fcp: undefined };
  window.__portalMainThread = seen;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) seen.tasks.push([entry.startTime, entry.duration]);
  }).observe({ type: "longtask", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === "first-contentful-paint") seen.fcp = entry.startTime;
  }).observe({ type: "paint", buffered: true });
})()`;

interface Recorded {
  tasks: [number, number][];
  fcp?: number;
}

/** Longest task and total blocking time of one load: both count from the first contentful paint, a task straddling it with its part after it. */
export function mainThreadLoadOf({ tasks, fcp }: Recorded): MainThreadLoad {
  if (fcp === undefined) throw new Error("the page reported no first contentful paint");
  const shown = tasks.map(([start, duration]) => start + duration - Math.max(start, fcp)).filter((ms) => ms > 0);
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

/** Resolves once no long task has run for QUIET_MS (or after QUIET_TIMEOUT_MS). */
const QUIET_SCRIPT = `new Promise((resolve) => {
  const started = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const last = Math.max(started, ...window.__portalMainThread.tasks.map(([start, duration]) => start + duration));
    if (now - last < ${QUIET_MS} && now - started < ${QUIET_TIMEOUT_MS}) return;
    clearInterval(timer);
    resolve();
  }, 100);
})`;

interface Evaluated {
  result?: { value?: unknown };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

/** One cold load of `url` at 375 px with the CPU slowed down, in a fresh browser context; answers what the page recorded. */
export async function recordLoad(browser: CdpBrowser, url: string): Promise<Recorded> {
  const { browserContextId } = await browser.send<{ browserContextId: string }>("Target.createBrowserContext");
  try {
    const { targetId } = await browser.send<{ targetId: string }>("Target.createTarget", { url: "about:blank", browserContextId });
    const { sessionId } = await browser.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true });
    const send = (method: string, params: Record<string, unknown> = {}) => browser.send(method, params, sessionId);
    await send("Emulation.setDeviceMetricsOverride", { ...PHONE_VIEWPORT, deviceScaleFactor: 2, mobile: true });
    await send("Emulation.setTouchEmulationEnabled", { enabled: true });
    await send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    await send("Page.enable");
    await send("Page.addScriptToEvaluateOnNewDocument", { source: RECORDER_SCRIPT });
    const loaded = browser.next("Page.loadEventFired", sessionId);
    const { errorText } = await browser.send<{ errorText?: string }>("Page.navigate", { url }, sessionId);
    if (errorText) throw new Error(`${url}: ${errorText}`);
    await loaded;
    let recorded: unknown;
    // Evaluated without enabling the Runtime domain (see the top of this file).
    for (const expression of [HYDRATED_SCRIPT, QUIET_SCRIPT, "JSON.stringify(window.__portalMainThread)"]) {
      const { result, exceptionDetails } = await browser.send<Evaluated>(
        "Runtime.evaluate",
        { expression, awaitPromise: true, returnByValue: true },
        sessionId,
      );
      if (exceptionDetails) throw new Error(`${url}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
      recorded = result?.value;
    }
    return JSON.parse(String(recorded)) as Recorded;
  } finally {
    await browser.send("Target.disposeBrowserContext", { browserContextId });
  }
}

/**
 * `loads` runs of `load` (five by default), judged on their medians. A page whose medians
 * miss `meets` gets as many loads again, judged on the medians of all of them: a busy
 * minute of a shared machine spoils every load in it, a regression all of them.
 */
export async function medianOfLoads(
  load: () => Promise<MainThreadLoad>,
  meets: (result: MainThreadResult) => boolean,
  loads = 5,
): Promise<MainThreadResult> {
  const results: MainThreadLoad[] = [];
  const summary = (): MainThreadResult => ({
    loads: [...results],
    longestTaskMs: median(results.map((r) => r.longestTaskMs)),
    totalBlockingMs: median(results.map((r) => r.totalBlockingMs)),
  });
  while (results.length < loads) results.push(await load());
  if (meets(summary())) return summary();
  while (results.length < loads * 2) results.push(await load());
  return summary();
}

/** Cold loads of `url` until their medians are known (medianOfLoads). */
export const measureMainThread = (
  browser: CdpBrowser,
  url: string,
  meets: (result: MainThreadResult) => boolean,
): Promise<MainThreadResult> => medianOfLoads(async () => mainThreadLoadOf(await recordLoad(browser, url)), meets);
