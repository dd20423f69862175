/** Sharing in WeChat (docs/behaviour.md#sharing-in-wechat): an official account's AppID and AppSecret. */

import { z } from "zod";
import { needs } from "./config-error.ts";
import { baseUrl } from "./value-kinds.ts";

export const wechatEnv = z.object({
  WECHAT_APP_ID: z
    .string()
    .trim()
    .regex(/^wx[0-9a-f]{16}$/, "must be an official account's AppID: wx and 16 hexadecimal digits, such as wx1234567890abcdef")
    .optional(),
  WECHAT_APP_SECRET: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{16,64}$/, "must be the official account's AppSecret (letters and digits)")
    .optional(),
  WECHAT_API_BASE: baseUrl.default("https://api.weixin.qq.com"),
});

export interface WechatConfig {
  appId: string;
  appSecret: string;
  apiBase: string;
}

/** Undefined: nothing WeChat-specific. */
export function wechatSettings(e: z.output<typeof wechatEnv> & { PUBLIC_ORIGIN?: string }): WechatConfig | undefined {
  if (e.WECHAT_APP_ID && !e.WECHAT_APP_SECRET) needs("WECHAT_APP_ID", "WECHAT_APP_SECRET");
  if (e.WECHAT_APP_SECRET && !e.WECHAT_APP_ID) needs("WECHAT_APP_SECRET", "WECHAT_APP_ID");
  // Pages are signed for the address WeChat sees, and its JS interface safe domain names that host.
  if (e.WECHAT_APP_ID && !e.PUBLIC_ORIGIN) needs("WECHAT_APP_ID", "PUBLIC_ORIGIN");
  return e.WECHAT_APP_ID && e.WECHAT_APP_SECRET
    ? { appId: e.WECHAT_APP_ID, appSecret: e.WECHAT_APP_SECRET, apiBase: e.WECHAT_API_BASE }
    : undefined;
}
