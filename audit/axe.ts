/**
 * axe-core in Chromium (driven by playwright-core): each page at each width, after
 * hydration, against the WCAG 2.0 and 2.1 A and AA rules. Also keeps the rendered DOM
 * of each visit, so the HTML checker sees what the browser shows, not only the server HTML.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Browser } from "playwright-core";

const require = createRequire(import.meta.url);
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** CSS selectors of the offending elements (the first few). */
  targets: string[];
  nodes: number;
}

export interface BrowserVisit {
  violations: AxeViolation[];
  /** The document after hydration, serialised with its doctype. */
  renderedHtml: string;
  /** Console errors, uncaught exceptions and failed requests on the page. */
  problems: string[];
}

interface AxeResults {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

let axeSource: Promise<string> | undefined;

/**
 * The axe script is run through the DevTools protocol (page.evaluate), which the page's
 * Content-Security-Policy does not govern; an injected <script> would be refused.
 */
function loadAxe(): Promise<string> {
  axeSource ??= readFile(require.resolve("axe-core/axe.min.js"), "utf8");
  return axeSource;
}

export async function visitWithAxe(browser: Browser, url: string, width: number): Promise<BrowserVisit> {
  const context = await browser.newContext({ viewport: { width, height: width < 768 ? 812 : 900 } });
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("response", (response) => {
      if (response.status() >= 400) problems.push(`${response.url()} answered ${response.status()}`);
    });
    const res = await page.goto(url, { waitUntil: "load" });
    if (!res?.ok()) throw new Error(`${url} answered ${res?.status()}`);
    await page
      .waitForFunction(() => document.documentElement.dataset.hydrated === "true")
      .catch((err: unknown) => {
        // A missing script is the usual cause: say which (dist/ rebuilt under the running server, say).
        throw new Error(`${url} at ${width} px did not hydrate: ${[...problems, String(err)].join("; ")}`);
      });
    const renderedHtml = await page.evaluate(() => `<!doctype html>\n${document.documentElement.outerHTML}`);
    await page.evaluate(await loadAxe());
    const results = await page.evaluate(
      (tags) =>
        (window as unknown as { axe: { run(options: unknown): Promise<AxeResults> } }).axe.run({
          runOnly: { type: "tag", values: tags },
          resultTypes: ["violations"],
        }),
      AXE_TAGS,
    );
    const violations = results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.length,
      targets: v.nodes.slice(0, 5).map((node) => node.target.map(String).join(" ")),
    }));
    return { violations, renderedHtml, problems };
  } finally {
    await context.close();
  }
}
