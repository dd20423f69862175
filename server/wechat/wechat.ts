/** Sharing in WeChat: the signature call, the kept ticket, the JS-SDK file and their metric (docs/behaviour.md#sharing-in-wechat). */
import { Router } from "express";
import { Counter, type Registry } from "prom-client";
import { WECHAT_SDK_PATH } from "../../shared/wechat.ts";
import type { WechatConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { SharedTier } from "../redis/redis-connection.ts";
import { jsSdkFileHandler } from "./js-sdk-file.ts";
import { createSignatureRouter } from "./signature-route.ts";
import { createTicketKeeper } from "./ticket-keeper.ts";
import { createWechatApi } from "./wechat-api.ts";

interface WechatDeps {
  publicOrigin: string;
  upstreamTimeoutMs: number;
  shared: SharedTier | undefined;
  registry: Registry;
  logger: Logger;
  now?: () => number;
}

/** The JS-SDK file and the signature; nothing when WeChat is not configured (an empty router would still defer every request a turn). */
export function createWechat(config: WechatConfig | undefined, deps: WechatDeps): Router | undefined {
  if (!config) return undefined;
  const router = Router();
  const { publicOrigin, upstreamTimeoutMs, shared, registry, logger, now = Date.now } = deps;
  const fetches = new Counter({
    name: "portal_wechat_fetches_total",
    help: "Calls to WeChat's API for the access token and the jsapi_ticket, by outcome",
    labelNames: ["call", "outcome"],
    registers: [registry],
  });
  const api = createWechatApi(config, upstreamTimeoutMs);
  // A token, a ticket, and a token again when WeChat says the kept one was replaced.
  const lockMs = 3 * upstreamTimeoutMs + 1000;
  const onFetch = (call: string, outcome: string) => fetches.inc({ call, outcome });
  const keeper = createTicketKeeper({ api, appId: config.appId, shared, lockMs, logger, onFetch, now });
  router.get(WECHAT_SDK_PATH, jsSdkFileHandler());
  router.use(createSignatureRouter({ appId: config.appId, publicOrigin, keeper, now }));
  return router;
}
