/** An app instance with WeChat configured against a stand-in, on 127.0.0.1, its log lines and metrics at hand. */
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { Registry } from "prom-client";
import { createApp, type PortalApp } from "../../server/app.ts";
import { jsSdkSignature } from "../../server/wechat/js-sdk-signature.ts";
import type { WechatSignature } from "../../shared/wechat.ts";
import { testConfig } from "./config.ts";
import { WECHAT_APP_ID, WECHAT_APP_SECRET } from "./wechat-api.ts";

export const SITE_ORIGIN = "https://www.example.com";

interface SignatureAnswer {
  status: number;
  retryAfter: string | null;
  body: { code: number; msg: string; data: WechatSignature | null };
  text: string;
}

export interface WechatInstance {
  app: PortalApp;
  origin: string;
  /** Every log line as written. */
  logText: string[];
  metricsText(): Promise<string>;
  signature(pageUrl: string): Promise<SignatureAnswer>;
  close(): Promise<void>;
}

export async function startWechatInstance(
  wechatUrl: string,
  upstreamUrl: string,
  { env = {}, now }: { env?: Record<string, string>; now?: () => number } = {},
): Promise<WechatInstance> {
  const logText: string[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => logText.push(line) });
  const registry = new Registry();
  const config = testConfig({
    API_BASE_URL: upstreamUrl,
    PUBLIC_ORIGIN: SITE_ORIGIN,
    WECHAT_APP_ID,
    WECHAT_APP_SECRET,
    WECHAT_API_BASE: wechatUrl,
    MISS_RATE_PER_MIN: "0",
    ...env,
  });
  const app = createApp(config, { logger, metricsRegistry: registry, now });
  await app.portal.sharedTier?.connected();
  const server = http.createServer(app).listen(0, "127.0.0.1");
  await once(server, "listening");
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    app,
    origin,
    logText,
    metricsText: () => registry.metrics(),
    async signature(pageUrl) {
      const res = await fetch(`${origin}/api/portal/wechat/signature?url=${encodeURIComponent(pageUrl)}`);
      const text = await res.text();
      return { status: res.status, retryAfter: res.headers.get("retry-after"), body: JSON.parse(text), text };
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await app.portal.close();
    },
  };
}

/** Whether `data` is the JS-SDK's signature of `pageUrl` with `ticket`. */
export function signs(data: WechatSignature | null, ticket: string | undefined, pageUrl: string): boolean {
  if (!data || !ticket) return false;
  return data.signature === jsSdkSignature({ ticket, nonceStr: data.nonceStr, timestamp: data.timestamp, url: pageUrl });
}
