/**
 * The configuration, parsed once at startup into a typed object (docs/behaviour.md#configuration): the one place
 * that reads the environment. Each feature's variables, their schema and the slice they make live in server/config/.
 * `parseConfig` takes the environment as an argument, so tests never touch process.env.
 */

import { z } from "zod";
import { type CacheConfig, cacheEnv, cacheSettings } from "./config/cache.ts";
import { ConfigError, shownValue, withoutCredentials } from "./config/config-error.ts";
import { type ContentConfig, contentEnv, contentSettings } from "./config/content.ts";
import { type EnquiryConfig, enquiriesEnv, enquiriesSettings } from "./config/enquiries.ts";
import { type ImagesConfig, imagesEnv, imagesSettings } from "./config/images.ts";
import { type LangsConfig, langsEnv, langsSettings } from "./config/langs.ts";
import { type ListeningConfig, listeningEnv, listeningSettings } from "./config/listening.ts";
import { type PagesConfig, pagesEnv, pagesSettings } from "./config/pages.ts";
import { type PurgePreviewConfig, purgePreviewEnv, purgePreviewSettings } from "./config/purge-preview.ts";
import { type PushConfig, pushEnv, pushSettings } from "./config/push.ts";
import { type RedisConfig, redisEnv, redisSettings } from "./config/redis.ts";
import { type WechatConfig, wechatEnv, wechatSettings } from "./config/wechat.ts";

export { ConfigError, shownValue, withoutCredentials } from "./config/config-error.ts";
export { type EnquiryConfig, WORKERS_FORM_SECRET } from "./config/enquiries.ts";
export { EMBEDDED_LANG_PARAM } from "./config/langs.ts";
export type { PushConfig } from "./config/push.ts";
export type { PurgeSecret } from "./config/secrets.ts";
export type { WechatConfig } from "./config/wechat.ts";

const envSchema = z.object({
  ...listeningEnv.shape,
  ...contentEnv.shape,
  ...cacheEnv.shape,
  ...langsEnv.shape,
  ...pagesEnv.shape,
  ...imagesEnv.shape,
  ...purgePreviewEnv.shape,
  ...redisEnv.shape,
  ...enquiriesEnv.shape,
  ...pushEnv.shape,
  ...wechatEnv.shape,
});

/** The configuration table of docs/operations.md lists each. */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

export interface Config extends ListeningConfig, ContentConfig, CacheConfig, LangsConfig, PagesConfig, PurgePreviewConfig, RedisConfig {
  images: ImagesConfig;
  enquiries: EnquiryConfig;
  push: PushConfig;
  /** Undefined: nothing WeChat-specific (docs/behaviour.md#sharing-in-wechat). */
  wechat?: WechatConfig;
}

/** Throws a ConfigError, one line naming the first bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  // An empty variable counts as unset, as shells and service files often write them.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    const message = withoutCredentials(issue?.message ?? "is invalid");
    throw new ConfigError(`${name} ${message}${shownValue(name, present[name])}`.replace(/\s+/g, " "));
  }
  const e = parsed.data;
  // In this order, so a variable missing its partner is named as it always was.
  const enquiries = enquiriesSettings(e, env);
  const push = pushSettings(e);
  const wechat = wechatSettings(e);
  const langs = langsSettings(e);
  return {
    ...listeningSettings(e),
    ...contentSettings(e),
    ...cacheSettings(e),
    ...langs,
    ...pagesSettings(e),
    images: imagesSettings(e),
    ...purgePreviewSettings(e),
    ...redisSettings(e),
    enquiries,
    push,
    wechat,
  };
}
