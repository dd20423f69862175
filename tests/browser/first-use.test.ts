/**
 * The controls a visitor meets before their part of the page has hydrated: the first
 * click, tap or key press on one does what it asked, whether it finds the server HTML or
 * starts the part's hydration (the header's menu and language switch hydrate only when
 * first used; the footer when it comes near). At the widths where the header shows the
 * menu's toggle.
 */
import type { Page } from "playwright-core";
import { expect, it, vi } from "vitest";
import { describeInBrowser } from "../support/browser/chromium.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { useDemoSiteInBrowser } from "../support/browser/site.ts";

type Input = "mouse" | "touch" | "keyboard";
const INPUTS: Input[] = ["mouse", "touch", "keyboard"];
const CASES = [375, 768].flatMap((width) => INPUTS.map((input) => ({ width, input })));
/** A visitor's pace is far slower; this only bounds a wait that never ends. */
const SETTLED = { timeout: 10_000 };

/** Uses the element as the visitor's input kind does: a mouse click, a tap, or Tab to it and Enter. */
async function use(page: Page, selector: string, input: Input, key = "Enter"): Promise<void> {
  if (input === "mouse") return page.click(selector);
  if (input === "touch") return page.tap(selector);
  // Tab from the control before it in the page's order (a long page has many), as a keyboard visitor comes to it.
  await page.evaluate((wanted) => {
    const element = document.querySelector(wanted);
    // A label is reached by its control's place (the menu's checkbox without JavaScript).
    const target = element instanceof HTMLLabelElement ? (element.control ?? element) : element;
    const focusable = [...document.querySelectorAll<HTMLElement>("a[href], button, input, summary, [tabindex]")];
    const before = focusable.filter((el) => target && el.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING);
    before.findLast((el) => el.checkVisibility() && el.tabIndex >= 0 && !el.contains(target))?.focus();
  }, selector);
  for (let presses = 0; presses < 10; presses += 1) {
    await page.keyboard.press("Tab");
    // The focused element, or the control a focused checkbox stands for (the menu's toggle without JavaScript).
    const reached = await page.evaluate((wanted) => {
      const focused = document.activeElement;
      if (!focused || focused === document.body) return false;
      const label = focused.id ? document.querySelector(`label[for="${focused.id}"]`) : null;
      return focused.matches(wanted) || (label?.matches(wanted) ?? false);
    }, selector);
    if (reached) return page.keyboard.press(key);
  }
  throw new Error(`${selector} is not reached by Tab`);
}

describeInBrowser("the first use of a control before its part has hydrated", () => {
  const env = useDemoSiteInBrowser();

  async function openHome(width: number, input: Input, javaScriptEnabled = true): Promise<{ page: Page; problems: string[] }> {
    const context = await env.browser.newContext({ viewport: { width, height: 800 }, hasTouch: input === "touch", javaScriptEnabled });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    // Without scripting the browser loads lazy images at once: the page is usable long before they all arrive.
    await page.goto(`${env.site.origin}/portal/index.html`, { waitUntil: javaScriptEnabled ? "load" : "domcontentloaded" });
    if (javaScriptEnabled) await hydrated(page);
    // Its stylesheet, though: a tap aimed before it applies lands where the element no longer is.
    else
      await vi.waitFor(
        async () =>
          expect(await page.locator('link[rel="stylesheet"]').evaluate((link) => (link as HTMLLinkElement).sheet !== null)).toBe(true),
        { timeout: 20_000, interval: 50 },
      );
    return { page, problems };
  }

  it.each(CASES)(
    "without JavaScript, opens the menu, a footer group and the language link by $input at $width px",
    async ({ width, input }) => {
      const withoutScript = async (act: (page: Page) => Promise<void>) => {
        const { page } = await openHome(width, input, false);
        try {
          await act(page);
        } finally {
          await page.context().close();
        }
      };
      await withoutScript(async (page) => {
        // The toggle is a checkbox: Space ticks it, as it does any checkbox.
        await use(page, "label.nav-toggle", input, "Space");
        // A tap's click comes from the browser's gesture after the touch events: wait for what it does.
        await page.locator("#site-menu").waitFor({ state: "visible", ...SETTLED });
      });
      await withoutScript(async (page) => {
        await use(page, ".footer-summary", input);
        await page.waitForFunction(() => document.querySelector<HTMLDetailsElement>(".footer-group")?.open === true, null, SETTLED);
      });
      await withoutScript(async (page) => {
        await Promise.all([page.waitForURL(/\/portal\/en\//, { waitUntil: "domcontentloaded" }), use(page, ".lang-switch", input)]);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
      });
    },
  );

  it.each(CASES)("opens the menu on the first $input use at $width px", async ({ width, input }) => {
    const { page, problems } = await openHome(width, input);
    try {
      // The page has hydrated, the header's tools not yet: the toggle is still the server's label and checkbox.
      expect(await page.$("label.nav-toggle")).not.toBeNull();
      await use(page, ".nav-toggle", input);
      await page.waitForSelector('button.nav-toggle[aria-expanded="true"]', SETTLED);
      expect(await page.locator("#site-menu").isVisible()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it.each(CASES)("switches the language on the first $input use at $width px", async ({ width, input }) => {
    const { page, problems } = await openHome(width, input);
    try {
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("zh-CN");
      await use(page, ".lang-switch", input);
      await page.waitForFunction(() => document.documentElement.lang === "en", undefined, SETTLED);
      await hydrated(page, SETTLED);
      expect(await page.locator(".nav-toggle").textContent()).toBe("Menu");
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it.each(CASES)("opens a footer group on the first $input use at $width px", async ({ width, input }) => {
    const { page, problems } = await openHome(width, input);
    try {
      const group = page.locator(".footer-group").first();
      expect(await group.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
      await use(page, ".footer-summary", input);
      await page.waitForFunction(() => document.querySelector<HTMLDetailsElement>(".footer-group")?.open === true, undefined, SETTLED);
      expect(await group.locator(":scope > :not(summary)").first().isVisible()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
