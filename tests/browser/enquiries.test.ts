/**
 * A visitor writes to the company from a product page, in Chromium at 375 px, without and
 * with JavaScript, on the built site with a real webhook receiver and SMTP server: the
 * subject is filled in, the thank-you shows, and the enquiry arrives once by each channel.
 * The served token is swapped for one signed 10 s earlier with the site's FORM_SECRET, so
 * the 3-second rule is passed without waiting.
 */
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createFormKeys } from "../../server/enquiries/form-keys.ts";
import { DEMO_SITE_FILE } from "../../server/project-root.ts";
import type { Product } from "../../shared/entities.ts";
import type { Lang } from "../../shared/page-state.ts";
import { describeInBrowser, launchChromium } from "../support/browser/chromium.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { startDemoSite, type TestSite } from "../support/browser/site.ts";
import {
  type SmtpReceiver,
  startSmtpReceiver,
  startWebhookReceiver,
  WEBHOOK_SECRET_TEXT,
  type WebhookReceiver,
} from "../support/enquiry-receivers.ts";

const FORM_SECRET = "browser-test-form-secret-0123456789";
const keys = createFormKeys(FORM_SECRET);
const product = (JSON.parse(readFileSync(DEMO_SITE_FILE, "utf8")) as { products: Product[] }).products[0] as Product;

describeInBrowser("enquiries in Chromium", () => {
  let site: TestSite;
  let browser: Browser;
  let webhook: WebhookReceiver;
  let smtp: SmtpReceiver;

  beforeAll(async () => {
    [webhook, smtp] = await Promise.all([startWebhookReceiver(), startSmtpReceiver()]);
    site = await startDemoSite({
      FORM_SECRET,
      ENQUIRY_WEBHOOK_URL: webhook.url,
      ENQUIRY_WEBHOOK_SECRET: WEBHOOK_SECRET_TEXT,
      SMTP_URL: smtp.url,
      ENQUIRY_TO: "sales@example.com",
      ENQUIRY_FROM: "website@example.com",
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await Promise.all([webhook?.close(), smtp?.close()]);
  });

  /** Every token the site serves is replaced by one issued 10 s ago, bound as the site binds its own. */
  async function withSeasonedTokens(page: Page): Promise<void> {
    const seasoned = (lang: Lang = "zh-CN") => keys.issue(Date.now() - 10_000, { lang, site: `//${new URL(site.origin).host}` });
    await page.route("**/portal/contact.html*", async (route) => {
      // The form given back after a mistake (a POST's answer) carries a fresh token too.
      const response = await route.fetch({ maxRedirects: 0 });
      const html = await response.text();
      const served = /name="token" value="([^"]+)"/.exec(html)?.[1];
      await route.fulfill({ response, body: served ? html.replaceAll(served, seasoned()) : html });
    });
    await page.route("**/api/portal/enquiry/token?lang=*", (route) =>
      route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({
          code: 0,
          msg: "ok",
          data: { token: seasoned(new URL(route.request().url()).searchParams.get("lang") as Lang) },
        }),
      }),
    );
  }

  const arrivedOnce = async (message: string) => {
    await webhook.waitFor((calls) => calls.some((c) => c.accepted && c.body.data.message === message));
    await smtp.waitFor((mails) => mails.some((m) => m.accepted && m.raw.includes(message)));
    const hooks = webhook.accepted().filter((c) => c.body.data.message === message);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]?.body.data.subject).toBe(product.name);
    expect(smtp.accepted().filter((m) => m.raw.includes(message))).toHaveLength(1);
  };

  const fill = async (page: Page, message: string) => {
    await page.locator("#enquiry-name").fill("王小明");
    await page.locator("#enquiry-email").fill("wang@example.com");
    await page.locator("#enquiry-message").fill(message);
    await page.locator("#enquiry-consent").check();
  };

  const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  it("sends an enquiry from a product page without JavaScript", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await withSeasonedTokens(page);
    await page.goto(`${site.origin}/portal/product/${product.id}`);
    await page.getByRole("link", { name: "咨询此项" }).click();
    await page.waitForURL(/\/portal\/contact\.html\?subject=/);
    expect(await page.locator("#enquiry-subject").inputValue()).toBe(product.name);
    expect(await fitsWidth(page)).toBe(true);
    // A mistake first: the form comes back with the values kept and the error summary.
    await page.locator("#enquiry-message").fill("no JavaScript here");
    await page.getByRole("button", { name: "提交留言" }).click();
    await page.locator(".enquiry-summary").waitFor();
    expect(await page.locator("#enquiry-message").inputValue()).toBe("no JavaScript here");
    expect(await page.locator("#enquiry-name").getAttribute("aria-invalid")).toBe("true");
    await fill(page, "sent without JavaScript");
    await page.getByRole("button", { name: "提交留言" }).click();
    await page.waitForURL(/\/portal\/contact\.html\?sent=1$/);
    await page.getByRole("heading", { name: "谢谢，您的留言已收到" }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await arrivedOnce("sent without JavaScript");
    await context.close();
  });

  it("marks every field in error the same way, and says of the consent only what to do", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await withSeasonedTokens(page);
    await page.goto(`${site.origin}/portal/contact.html`);
    // An email address that is not one, no name and no consent: three fields in error, each its own kind of input.
    await page.locator("#enquiry-email").fill("not-an-address");
    await page.locator("#enquiry-message").fill("three mistakes");
    await page.getByRole("button", { name: "提交留言" }).click();
    await page.locator(".enquiry-summary").waitFor();
    // The answer's stylesheets, not only its markup: the outlines are read from computed style.
    await page.waitForLoadState("load");
    const marks = await page.evaluate(() =>
      [...document.querySelectorAll('.enquiry-form [aria-invalid="true"]')].map((field) => {
        const style = getComputedStyle(field);
        return { id: field.id, outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}` };
      }),
    );
    expect(marks.map((mark) => mark.id).sort()).toEqual(["enquiry-consent", "enquiry-email", "enquiry-name"]);
    expect(marks[0]?.outline).toMatch(/^solid [1-9]/);
    expect(marks.map((mark) => mark.outline)).toEqual(marks.map(() => marks[0]?.outline));
    // The consent's error is what to do, not its whole sentence again, in the summary and beside the box.
    const consentError = (await page.locator("#enquiry-consent-error").textContent())?.trim();
    expect(consentError).toBe("请勾选同意后再提交");
    const summary = await page.locator(".enquiry-summary li").allTextContents();
    expect(summary).toContain("请勾选同意后再提交");
    expect(summary.join("\n")).not.toMatch(/[。.][:：]/);
    await context.close();
  });

  it("refuses a form another site's page posts to it, and tells the visitor why on the contact page", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    // The other site got a token as its server can (and waited out the 3 seconds); its page posts the form here.
    const token = keys.issue(Date.now() - 10_000, { lang: "zh-CN", site: `//${new URL(site.origin).host}` });
    const fields = { name: "Someone", email: "someone@example.com", message: "text of another site", consent: "on", token, website: "" };
    const inputs = Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`);
    await page.route("http://other-site.test/**", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><form method="post" action="${site.origin}/portal/contact.html">${inputs.join("")}<button>Go</button></form>`,
      }),
    );
    await page.goto("http://other-site.test/");
    const posted = page.waitForResponse((r) => r.request().method() === "POST" && r.url() === `${site.origin}/portal/contact.html`);
    await page.getByRole("button", { name: "Go" }).click();
    expect((await posted).status()).toBe(403);
    await page.getByRole("heading", { name: "这份表单是从其他网站提交的，未被接收。如需联系我们，请在本页填写并提交。" }).waitFor();
    expect(await page.locator("#enquiry-message").inputValue()).toBe("");
    await context.close();
  });

  it("sends an enquiry from a product page with JavaScript, without a reload, focus on the result", async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await withSeasonedTokens(page);
    await page.goto(`${site.origin}/portal/product/${product.id}`);
    await hydrated(page);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole("link", { name: "咨询此项" }).click();
    await page.waitForFunction(() => (document.querySelector("input[name=token]") as HTMLInputElement | null)?.value);
    expect(await page.locator("#enquiry-subject").inputValue()).toBe(product.name);
    await page.getByRole("button", { name: "提交留言" }).click();
    await page.waitForFunction(() => document.activeElement?.classList.contains("enquiry-summary"));
    await fill(page, "sent with JavaScript");
    await page.getByRole("button", { name: "提交留言" }).click();
    await page.waitForFunction(() => document.activeElement?.textContent === "谢谢，您的留言已收到");
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await fitsWidth(page)).toBe(true);
    await arrivedOnce("sent with JavaScript");
    await context.close();
  });

  it("sends the form in English after switching language on the page, with a token for the English form", async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await withSeasonedTokens(page);
    await page.goto(`${site.origin}/portal/contact.html`);
    await hydrated(page);
    const served = await page.locator("input[name=token]").inputValue();
    await page.locator("a.lang-switch").click();
    await page.waitForURL(/\/portal\/en\/contact\.html$/);
    await page.waitForFunction((old) => {
      const token = (document.querySelector("input[name=token]") as HTMLInputElement | null)?.value;
      return token && token !== old;
    }, served);
    await fill(page, "sent in English after switching");
    await page.getByRole("button", { name: "Send" }).click();
    await page.waitForFunction(() => document.activeElement?.textContent === "Thank you: your enquiry has arrived");
    await webhook.waitFor((calls) => calls.some((c) => c.accepted && c.body.data.message === "sent in English after switching"));
    expect(webhook.accepted().find((c) => c.body.data.message === "sent in English after switching")?.body.data.lang).toBe("en");
    await context.close();
  });
});
