/**
 * Debian's Chromium (harness/chromium.ts) for the browser suites. Where Chromium is
 * absent they skip, unless CI is set: there they fail, so a missing browser never passes
 * silently.
 */
import { existsSync } from "node:fs";
import type { Browser, ConsoleMessage, Page, Route } from "playwright-core";
import { describe } from "vitest";
import { CHROMIUM_PATH } from "../../../harness/chromium.ts";

export { launchChromium } from "../../../harness/chromium.ts";

export const HAS_CHROMIUM = existsSync(CHROMIUM_PATH);

/** `describe`, or `describe.skip` when Chromium is missing outside CI. */
export const describeInBrowser: typeof describe = HAS_CHROMIUM || process.env.CI ? describe : (describe.skip as typeof describe);

export interface WatchedPage {
  page: Page;
  /** Console errors and warnings (hydration mismatches are reported as errors), and uncaught page errors. */
  problems: string[];
  /** Requests the page made to /api/portal. */
  apiRequests: string[];
  /** Requests that failed or answered 4xx/5xx. */
  failedRequests: string[];
}

/** A new page at the given viewport that records everything a test should fail on. */
export async function openWatchedPage(browser: Browser, width = 1280, height = 800): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const watched: WatchedPage = { page, problems: [], apiRequests: [], failedRequests: [] };
  page.on("console", (message: ConsoleMessage) => {
    if (message.type() === "error" || message.type() === "warning") watched.problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => watched.problems.push(`pageerror: ${error.message}`));
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/portal/")) watched.apiRequests.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  page.on("requestfailed", (request) => {
    // A request cut off because the visitor moved on is not a failure anyone sees.
    if (request.failure()?.errorText !== "net::ERR_ABORTED")
      watched.failedRequests.push(`${request.url()} ${request.failure()?.errorText}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) watched.failedRequests.push(`${response.url()} ${response.status()}`);
  });
  return watched;
}

/**
 * Holds the page's requests matching `url` (a Playwright glob) until the returned function is
 * called; then they go on to the server, or are answered with `answer` (a status, say) if given.
 */
export async function holdRequests(page: Page, url: string, answer?: Parameters<Route["fulfill"]>[0]): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await (answer ? route.fulfill(answer) : route.continue());
  });
  return release;
}

/**
 * Answers the page's requests matching `url` as a failing upstream does (502 in the API's
 * envelope) until the returned function is called; from then on they go on to the server.
 */
export async function failRequests(page: Page, url: string): Promise<() => void> {
  let failing = true;
  await page.route(url, (route) =>
    failing
      ? route.fulfill({ status: 502, contentType: "application/json", body: '{"code":502,"msg":"upstream failed","data":null}' })
      : route.continue(),
  );
  return () => {
    failing = false;
  };
}

/**
 * Follows the footer's link to `href` with the requests matching `data` held, and resolves
 * once the header's loading bar shows; the returned function lets the held requests go.
 */
export async function followWithDataHeld(page: Page, href: string, data: string): Promise<() => void> {
  const release = await holdRequests(page, data);
  await page.click(`.site-footer a[href='${href}']`);
  await page.locator(".nav-progress.is-active").waitFor({ state: "visible" });
  return release;
}
