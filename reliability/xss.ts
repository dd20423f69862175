/**
 * XSS: the stand-in upstream's fields are seeded with script payloads (event handler
 * attributes on <img>, <svg>, <details>, <input>..., `javascript:` links and form actions
 * in several spellings, `</script>` and `<!--<script>` inside plain data, srcdoc frames,
 * mutation-XSS nesting, meta refresh, <base>), each payload tagged with its field so a
 * run names the field that fired. Every page type is then loaded in Chromium, twice:
 * with the server's Content-Security-Policy, and with CSP bypassed (so the sanitiser and
 * the rendering must stop the payloads on their own). After hydration the page is
 * scrolled, every `javascript:` link is clicked, and a client-side navigation is made.
 * A payload "executes" when a dialog opens or `window.__xss` is set.
 *
 * The server HTML of each page is also parsed: no event-handler attribute, no script,
 * frame, object, embed, base or meta refresh from the content, no URL attribute that
 * carries a payload, and exactly our own scripts (the built modules and the one JSON
 * state script). And the payloads are really there, as text, on the pages that show
 * their fields (so passing is not for want of trying).
 *
 * A third server's upstream sends every string of every answer in a hostile JSON shape
 * instead (an array, a nested one, an object, a string-like object, a `__proto__` key, a
 * number, a boolean, null; harness/hostile-content.ts), the payloads inside: every page
 * must still load and hydrate, and nothing may run or sit in an executable position.
 */
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../harness/chromium.ts";
import { executablePayloads, HOSTILE_SHAPES, htmlPayload, reshapeStrings } from "../harness/hostile-content.ts";
import { type ServerProcess, startServer } from "../harness/server-process.ts";
import type { SiteFile } from "../server/content/site-file.ts";
import { logFileOf, type RunContext } from "./context.ts";
import { Checks, type SectionResult } from "./report.ts";
import { serverEnv } from "./server.ts";
import { type ControlledUpstream, startControlledUpstream } from "./upstream.ts";
import { CUSTOM_HOME, PAGES, type PageSpec } from "./xss-pages.ts";
import { seededSite } from "./xss-site.ts";

const PARALLEL_PAGES = 3;
const SHORT_FORM_CSP_PAGES = new Set([
  "/portal/index.html",
  "/portal/message/news/1",
  "/portal/product/1",
  "/portal/job/society/1",
  "/portal/about/index.html",
]);
interface PageVerdict {
  path: string;
  custom: boolean;
  /** Served with every string of the upstream answers in a hostile JSON shape. */
  shapes: boolean;
  csp: boolean;
  executed: string[];
  linksClicked: number;
  missingMarkers: string[];
  staticFindings: string[];
  /** Set when the page could not be loaded, hydrated or followed. */
  failure?: string;
}

async function visit(
  browser: Browser,
  origin: string,
  { path, markers, follow }: PageSpec,
  csp: boolean,
  custom = false,
  shapes = false,
): Promise<PageVerdict> {
  const context = await browser.newContext({ bypassCSP: !csp, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const executed: string[] = [];
  page.on("dialog", (dialog) => {
    executed.push(`dialog "${dialog.message()}"`);
    void dialog.dismiss().catch(() => {});
  });
  const verdict: PageVerdict = { path, custom, shapes, csp, executed, linksClicked: 0, missingMarkers: [], staticFindings: [] };
  try {
    const response = await page.goto(origin + path, { waitUntil: "load" });
    const html = (await response?.text()) ?? "";
    verdict.staticFindings = executablePayloads(html);
    if (response?.status() !== 200 && !path.includes("99999")) throw new Error(`answered ${response?.status()}`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", undefined, { timeout: 30_000 });
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    // Text and the attributes that carry text (alt, title, aria-label), outside scripts: where a payload shows as text.
    const text = await page.evaluate(() => {
      const parts: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.nodeType === Node.TEXT_NODE) {
          if (node.parentElement?.tagName !== "SCRIPT") parts.push(node.nodeValue ?? "");
        } else {
          for (const name of ["alt", "title", "aria-label"]) parts.push((node as Element).getAttribute(name) ?? "");
        }
      }
      return parts.join("\n");
    });
    verdict.missingMarkers = markers.filter((m) => !text.includes(m));
    verdict.linksClicked = await clickScriptLinks(page);
    // Client-side navigation to a seeded detail: its data comes from /api/portal and is rendered by the browser.
    if (follow) {
      // A DOM click: the link's own handler navigates on the client, whatever may be animating over it.
      await page
        .locator(`a[href="${follow.path}"]`)
        .first()
        .evaluate((a: HTMLAnchorElement) => a.click());
      await page.waitForURL(`**${follow.path}`);
      const shown = await page
        .waitForFunction((m) => document.querySelector("main")?.textContent?.includes(m), follow.marker, { timeout: 10_000 })
        .then(() => true)
        .catch(() => false);
      if (!shown) verdict.missingMarkers.push(`${follow.marker} after following a link to ${follow.path}`);
      verdict.linksClicked += await clickScriptLinks(page);
    }
    // Nothing to wait for when nothing should happen: give handlers and timers a moment.
    await page.waitForTimeout(300);
    const flag = await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss);
    if (flag !== undefined) executed.push(`window.__xss = ${String(flag)}`);
  } catch (error) {
    verdict.failure = error instanceof Error ? error.message.split("\n")[0] : String(error);
  } finally {
    await context.close();
  }
  return verdict;
}

/** Clicks every link whose URL is javascript: (the way a visitor's click would run it). */
async function clickScriptLinks(page: Page): Promise<number> {
  return page.evaluate(() => {
    const links = [...document.querySelectorAll<HTMLAnchorElement>("a[href], area[href]")].filter((a) => {
      try {
        return new URL(a.href).protocol === "javascript:";
      } catch {
        return false;
      }
    });
    for (const link of links) link.click();
    return links.length;
  });
}

/**
 * Every string of every answer replaced by a hostile shape, the shapes taken in turn
 * string after string, so each page meets all of them across its fields.
 */
function reshapeInTurn(data: unknown): unknown {
  let turn = 0;
  return reshapeStrings(data, (payload) => (HOSTILE_SHAPES[turn++ % HOSTILE_SHAPES.length] as (typeof HOSTILE_SHAPES)[number]).of(payload));
}

async function serve(
  ctx: RunContext,
  site: SiteFile,
  name: string,
  reshape?: (data: unknown) => unknown,
): Promise<{ upstream: ControlledUpstream; server: ServerProcess }> {
  const upstream = await startControlledUpstream(site, ctx.workDir, { reshape });
  const server = await startServer({
    name,
    logFile: logFileOf(ctx, name),
    cpus: ctx.serverCpus,
    env: serverEnv({ API_BASE_URL: upstream.url, PORTAL_CLASSIFY: upstream.classifyJson }),
  });
  return { upstream, server };
}

export async function runXss(ctx: RunContext): Promise<SectionResult> {
  const checks = new Checks();
  const standard = seededSite(ctx.site, 1);
  const custom = seededSite(ctx.site, 2);
  const started: { upstream: ControlledUpstream; server: ServerProcess }[] = [];
  let browser: Browser | undefined;
  try {
    started.push(
      await serve(ctx, standard.site, "xss"),
      await serve(ctx, custom.site, "xss-custom-home"),
      await serve(ctx, standard.site, "xss-shapes", reshapeInTurn),
    );
    const [main, home, shapes] = started as [(typeof started)[0], (typeof started)[0], (typeof started)[0]];
    browser = await launchChromium();
    // A few pages at a time: each in its own browser context, so nothing carries over between them.
    // Every page with CSP bypassed (the sanitiser and the rendering on their own); with the server's CSP,
    // every page too, or in the short form the pages that show the most fields.
    const withCsp = ctx.short ? PAGES.filter((page) => SHORT_FORM_CSP_PAGES.has(page.path)) : PAGES;
    const jobs = [
      ...PAGES.map((page) => () => visit(browser as Browser, main.server.origin, page, false)),
      () => visit(browser as Browser, home.server.origin, CUSTOM_HOME, false, true),
      // Non-string shapes are dropped or shown as nothing, so there are no markers to find; every page must still load.
      ...PAGES.map((page) => () => visit(browser as Browser, shapes.server.origin, { path: page.path, markers: [] }, false, false, true)),
      ...withCsp.map((page) => () => visit(browser as Browser, main.server.origin, page, true)),
      () => visit(browser as Browser, home.server.origin, CUSTOM_HOME, true, true),
    ];
    const verdicts: PageVerdict[] = new Array(jobs.length);
    let nextJob = 0;
    await Promise.all(
      Array.from({ length: PARALLEL_PAGES }, async () => {
        while (nextJob < jobs.length) {
          const index = nextJob++;
          verdicts[index] = await (jobs[index] as () => Promise<PageVerdict>)();
        }
      }),
    );
    // Controls: the same payloads, unsanitised on a blank page, do run and are seen; the HTML check sees them too.
    const control = await browser.newContext({ bypassCSP: true });
    const controlPage = await control.newPage();
    let dialogs = 0;
    controlPage.on("dialog", (dialog) => {
      dialogs++;
      void dialog.dismiss().catch(() => {});
    });
    await controlPage.setContent(htmlPayload("control"));
    const controlFlag = await controlPage
      .waitForFunction(() => (window as unknown as { __xss?: unknown }).__xss, undefined, { timeout: 5000 })
      .then(
        () => true,
        () => false,
      );
    await control.close();
    checks.add(
      "control: an unsanitised payload runs in this Chromium and is detected",
      controlFlag && dialogs > 0,
      `flag ${controlFlag}, ${dialogs} dialogs`,
    );
    checks.add(
      "control: the HTML check finds the raw payloads",
      executablePayloads(`<html><body>${htmlPayload("control")}</body></html>`).length >= 10,
    );
    for (const v of verdicts) {
      const label = `${v.path}${v.custom ? " (custom home layout)" : ""}${v.shapes ? " (strings in hostile JSON shapes)" : ""}, ${v.csp ? "with CSP" : "CSP bypassed"}`;
      checks.add(`${label}: loads, hydrates and is followed`, v.failure === undefined, v.failure);
      checks.add(`${label}: no payload executes`, v.executed.length === 0, v.executed.join("; "));
      if (!v.csp) {
        checks.add(
          `${label}: the server HTML has no payload in an executable position`,
          v.staticFindings.length === 0,
          v.staticFindings.slice(0, 5).join("\n"),
        );
        checks.add(
          `${label}: the payloads are on the page, as text`,
          v.missingMarkers.length === 0,
          `missing ${v.missingMarkers.join(", ")}`,
        );
      }
    }
    const pagesLoaded = verdicts.length;
    const clicked = verdicts.reduce((sum, v) => sum + v.linksClicked, 0);
    const executed = verdicts.filter((v) => v.executed.length > 0).length;
    return {
      section: "XSS",
      headline: `XSS: ${standard.fields} upstream fields seeded, ${pagesLoaded} page loads in Chromium, ${clicked} javascript: links clicked, ${executed} pages where a payload executed`,
      checks: checks.list,
      figures: [
        `${standard.fields} upstream fields seeded with ${htmlPayload("x").split("\n").length} markup / 3 text payloads`,
        `${pagesLoaded} page loads in Chromium (${PAGES.length + 1} page types with CSP bypassed, ${withCsp.length + 1} with the server's CSP, ${PAGES.length} with every string in a hostile JSON shape)`,
        `${clicked} javascript: links clicked; ${executed} executed`,
      ],
      logs: started.map((s) => s.server.logFile),
    };
  } finally {
    await browser?.close();
    for (const { server, upstream } of started) {
      await server.stop();
      await upstream.close();
    }
  }
}
