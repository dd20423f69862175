/**
 * In WeChat's browser only, after hydration: loads WeChat's JS-SDK from this site, asks the
 * server to sign this page, and sets the share card for friends and moments; after a navigation
 * inside the site, the card of the page navigated to (docs/behaviour.md#sharing-in-wechat). It
 * runs when imported, so the entry's part of it is one import. A failure leaves WeChat's plain
 * link card.
 */
import type { Envelope } from "../../shared/envelope.ts";
import { WECHAT_SDK_PATH, WECHAT_SIGNATURE_PATH, type WechatSignature } from "../../shared/wechat.ts";
import { pageAddress, type ShareData, shareDataOf } from "./share-data.ts";

interface Wx {
  config(options: WechatSignature & { debug: boolean; jsApiList: string[] }): void;
  ready(callback: () => void): void;
  error(callback: (result: unknown) => void): void;
  updateAppMessageShareData(data: ShareData): void;
  updateTimelineShareData(data: Omit<ShareData, "desc">): void;
}

const SHARE_APIS = ["updateAppMessageShareData", "updateTimelineShareData"];

function loadSdk(): Promise<Wx> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = WECHAT_SDK_PATH;
    script.async = true;
    script.onload = () => {
      const wx = (window as unknown as { wx?: Wx }).wx;
      if (wx) resolve(wx);
      else reject(new Error("the JS-SDK loaded without wx"));
    };
    script.onerror = () => reject(new Error("the JS-SDK did not load"));
    document.head.appendChild(script);
  });
}

async function signatureOf(url: string): Promise<WechatSignature> {
  const res = await fetch(`${WECHAT_SIGNATURE_PATH}?url=${encodeURIComponent(url)}`, { headers: { Accept: "application/json" } });
  const body = (await res.json()) as Envelope<WechatSignature | null>;
  if (!res.ok || !body.data) throw new Error(`signature: ${res.status} ${body.msg}`);
  return body.data;
}

function share(wx: Wx, { title, desc, link, imgUrl }: ShareData): void {
  wx.updateAppMessageShareData({ title, desc, link, imgUrl });
  wx.updateTimelineShareData({ title, link, imgUrl });
}

/**
 * A client navigation changes the address and the title but keeps the landing page's head: the new page's card is
 * read from its HTML (a page-cache hit, as a reload would be). The config stays the landing page's signature.
 */
function followNavigations(wx: Wx): void {
  let shown = pageAddress();
  const check = async () => {
    const address = pageAddress();
    if (address === shown) return;
    shown = address;
    const res = await fetch(address, { headers: { Accept: "text/html" } });
    if (!res.ok || address !== pageAddress()) return;
    share(wx, shareDataOf(new DOMParser().parseFromString(await res.text(), "text/html")));
  };
  const checkQuietly = () => void check().catch((error: unknown) => console.warn("WeChat sharing:", error));
  new MutationObserver(checkQuietly).observe(document.head, { childList: true, subtree: true, characterData: true });
  window.addEventListener("popstate", checkQuietly);
}

async function shareInWechat(): Promise<void> {
  const [wx, signature] = await Promise.all([loadSdk(), signatureOf(pageAddress())]);
  const data = shareDataOf(document);
  wx.config({ debug: false, ...signature, jsApiList: SHARE_APIS });
  wx.error((result) => console.warn("WeChat JS-SDK:", result));
  wx.ready(() => {
    share(wx, data);
    followNavigations(wx);
  });
}

shareInWechat().catch((error: unknown) => console.warn("WeChat sharing:", error));
