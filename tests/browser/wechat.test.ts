/**
 * Sharing in WeChat, in Chromium against the built site and a stand-in WeChat API. With
 * WeChat's user agent, a news page loads the JS-SDK this site serves (the real file), asks
 * for a signature, and sets the share card: WeChat's native side is a stand-in
 * `WeixinJSBridge` that records what the JS-SDK hands it. In another browser the same page
 * loads nothing of it, from the same cached page.
 */
import { createHash } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../../harness/free-port.ts";
import { WECHAT_SDK_PATH } from "../../shared/wechat.ts";
import { describeInBrowser, launchChromium } from "../support/browser/chromium.ts";
import { hydrated } from "../support/browser/hydrated.ts";
import { type BuiltSite, startBuiltSite } from "../support/built-site.ts";
import { type StandInWechat, startStandInWechat, WECHAT_APP_ID, WECHAT_APP_SECRET } from "../support/wechat-api.ts";

const WECHAT_UA =
  "Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 " +
  "Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 " +
  "Weixin NetType/WIFI Language/zh_CN ABI/arm64";

interface BridgeCall {
  name: string;
  args: Record<string, unknown>;
}

/** WeChat's native side as the JS-SDK talks to it: records each call, and says ok to the config and the share data. */
function standInBridge(): void {
  const calls: BridgeCall[] = [];
  const answered = ["preVerifyJSAPI", "updateAppMessageShareData", "updateTimelineShareData"];
  Object.assign(window, {
    bridgeCalls: calls,
    WeixinJSBridge: {
      invoke(name: string, args: Record<string, unknown>, callback?: (result: { err_msg: string }) => void) {
        calls.push({ name, args: JSON.parse(JSON.stringify(args)) });
        if (answered.includes(name)) setTimeout(() => callback?.({ err_msg: `${name}:ok` }), 0);
      },
      on() {},
    },
  });
}

/** The share card the server's head gives `html`, as the test reads it (the page reads it through the DOM). */
function cardInHead(html: string) {
  const unescaped = (text: string | undefined) =>
    (text ?? "")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  const attribute = (pattern: RegExp) => unescaped(pattern.exec(html)?.[1]);
  return {
    title: attribute(/<meta property="og:title" content="([^"]*)">/),
    desc: attribute(/<meta name="description" content="([^"]*)">/),
    imgUrl: attribute(/<meta property="og:image" content="([^"]*)">/),
    link: attribute(/<link rel="canonical" href="([^"]*)">/),
  };
}

const shareCalls = (calls: BridgeCall[]) => calls.filter((call) => call.name === "updateAppMessageShareData").map((call) => call.args);

const bridgeCalls = (page: Page) => page.evaluate(() => (window as unknown as { bridgeCalls: BridgeCall[] }).bridgeCalls);

describeInBrowser("sharing in WeChat (built site, stand-in WeChat API)", () => {
  let wechat: StandInWechat;
  let site: BuiltSite;
  let browser: Browser;
  let newsPage: string;

  beforeAll(async () => {
    wechat = await startStandInWechat();
    const port = await freePort();
    site = await startBuiltSite({
      PORT: String(port),
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      WECHAT_APP_ID,
      WECHAT_APP_SECRET,
      WECHAT_API_BASE: wechat.url,
    });
    browser = await launchChromium();
    const list = await (await fetch(`${site.origin}/portal/message/news/list.html`)).text();
    const href = /href="(\/portal\/message\/news\/\d+)"/.exec(list)?.[1];
    if (!href) throw new Error("the demo news list links no news item");
    newsPage = `${site.origin}${href}`;
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await wechat?.close();
  });

  it("asks for a signature and sets the share data to the page's title, description, image and canonical URL", async () => {
    const context = await browser.newContext({ userAgent: WECHAT_UA, viewport: { width: 390, height: 844 } });
    await context.addInitScript(standInBridge);
    const page = await context.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on("request", (request) => requests.push(new URL(request.url()).pathname));
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(`${newsPage}#comments`);
    await page.waitForFunction(() =>
      (window as unknown as { bridgeCalls: BridgeCall[] }).bridgeCalls.some((call) => call.name === "updateTimelineShareData"),
    );
    const calls = await bridgeCalls(page);
    const head = await page.evaluate(() => ({
      title: document.querySelector('meta[property="og:title"]')?.getAttribute("content"),
      description: document.querySelector('meta[name="description"]')?.getAttribute("content"),
      image: document.querySelector('meta[property="og:image"]')?.getAttribute("content"),
      canonical: document.querySelector('link[rel="canonical"]')?.getAttribute("href"),
      documentTitle: document.title,
    }));
    await context.close();

    expect(problems).toEqual([]);
    expect(requests).toContain(WECHAT_SDK_PATH);
    expect(requests).toContain("/api/portal/wechat/signature");
    expect(wechat.tokenFetches).toBe(1);

    const config = calls.find((call) => call.name === "preVerifyJSAPI")?.args;
    expect(config).toMatchObject({ verifyAppId: WECHAT_APP_ID, verifyJsApiList: ["updateAppMessageShareData", "updateTimelineShareData"] });
    const signed = `jsapi_ticket=${wechat.ticket}&noncestr=${config?.verifyNonceStr}&timestamp=${config?.verifyTimestamp}&url=${newsPage}`;
    expect(config?.verifySignature).toBe(createHash("sha1").update(signed).digest("hex"));

    expect(head.title).toBe(head.documentTitle);
    expect(head.description).toBeTruthy();
    expect(head.image).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/portal\//);
    expect(head.canonical).toBe(newsPage);
    const card = { title: head.title, link: head.canonical, imgUrl: head.image };
    expect(calls.find((call) => call.name === "updateAppMessageShareData")?.args).toMatchObject({ ...card, desc: head.description });
    expect(calls.find((call) => call.name === "updateTimelineShareData")?.args).toMatchObject(card);
  });

  it("sets the card of the page a navigation inside the site leads to", async () => {
    const context = await browser.newContext({ userAgent: WECHAT_UA });
    await context.addInitScript(standInBridge);
    const page = await context.newPage();
    await page.goto(newsPage);
    await page.waitForFunction(() =>
      (window as unknown as { bridgeCalls: BridgeCall[] }).bridgeCalls.some((call) => call.name === "updateTimelineShareData"),
    );
    await page.evaluate(() => Object.assign(window, { landed: true }));
    // The news item's own link back to the list: part of the page, hydrated with it.
    await page.click(".detail-back a");
    await page.waitForFunction(
      () =>
        (window as unknown as { bridgeCalls: BridgeCall[] }).bridgeCalls.filter((call) => call.name === "updateAppMessageShareData")
          .length === 2,
    );
    const calls = await bridgeCalls(page);
    const stayed = await page.evaluate(() => (window as unknown as { landed?: boolean }).landed === true);
    const address = page.url();
    await context.close();

    expect(stayed).toBe(true);
    expect(address).toBe(`${site.origin}/portal/message/news/list.html`);
    const list = cardInHead(await (await fetch(address)).text());
    expect(list.title).toBeTruthy();
    expect(list.link).toBe(address);
    expect(shareCalls(calls)[1]).toMatchObject(list);
    expect(calls.filter((call) => call.name === "preVerifyJSAPI")).toHaveLength(1);
  });

  it("loads nothing of it in another browser, from the same cached page", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const requests: string[] = [];
    page.on("request", (request) => requests.push(new URL(request.url()).pathname));
    await page.goto(newsPage);
    await hydrated(page);
    const wx = await page.evaluate(() => typeof (window as unknown as { wx?: unknown }).wx);
    await context.close();
    expect(wx).toBe("undefined");
    expect(requests.filter((path) => /wechat/i.test(path))).toEqual([]);

    const inWechat = await fetch(newsPage, { headers: { "User-Agent": WECHAT_UA } });
    const elsewhere = await fetch(newsPage);
    expect(await inWechat.text()).toBe(await elsewhere.text());
  });
});
