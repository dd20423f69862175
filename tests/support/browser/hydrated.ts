/**
 * Waiting for a page to hydrate (`<html data-hydrated="true">`, docs/behaviour.md#start-up-in-the-browser).
 * A page that does not in time fails saying what it was still doing: a hang on a loaded machine is then
 * told from a script that never came.
 */
import type { Page } from "playwright-core";

/** The page's progress as the browser reports it: its state, its load events, and its scripts and stylesheets. */
function loadingStateIn(): string {
  const ms = (value: number | undefined) => (value ? `${Math.round(value)} ms` : "not yet");
  const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  const ended = new Map(performance.getEntriesByType("resource").map((entry) => [entry.name, entry as PerformanceResourceTiming]));
  const asked = [
    ...document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>("script[src], link[rel=stylesheet], link[rel=modulepreload]"),
  ].map((element) => ("src" in element ? element.src : element.href));
  const code = [...ended.values()].filter((entry) => /\.(js|css)$/.test(new URL(entry.name).pathname));
  return [
    `${ms(performance.now())} after it was asked for: ${document.readyState}, ${document.visibilityState}`,
    `DOMContentLoaded ${ms(nav?.domContentLoadedEventEnd)}, load ${ms(nav?.loadEventEnd)}`,
    `not arrived: ${asked.filter((url) => !ended.has(url)).join(", ") || "none"}`,
    `arrived: ${code.map((entry) => `${new URL(entry.name).pathname} ${Math.round(entry.startTime)}-${Math.round(entry.responseEnd)} ms`).join(", ")}`,
  ].join("; ");
}

export async function hydrated(page: Page, options: { timeout?: number } = {}): Promise<void> {
  try {
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", undefined, options);
  } catch (error) {
    let timer: NodeJS.Timeout | undefined;
    const state = await Promise.race([
      page.evaluate(loadingStateIn).catch((reason: unknown) => `unreadable (${String(reason)})`),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve("no answer from the page within 5 s"), 5000);
      }),
    ]).finally(() => clearTimeout(timer));
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nnot hydrated; the page: ${state}`, { cause: error });
  }
}
