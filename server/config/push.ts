/** Telling search engines of changed pages (docs/behaviour.md#telling-search-engines). */

import { z } from "zod";
import { needs } from "./config-error.ts";
import { integer, postUrl } from "./value-kinds.ts";

/** IndexNow's own rule for a key, from its published documentation. */
const indexNowKey = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{8,128}$/, "must be 8 to 128 characters of a-z, A-Z, 0-9 and -");

export const pushEnv = z.object({
  INDEXNOW_KEY: indexNowKey.optional(),
  INDEXNOW_ENDPOINT: postUrl.default("https://api.indexnow.org/indexnow"),
  BAIDU_PUSH_TOKEN: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, "must be the token Baidu's webmaster tools show (letters, digits, _ and -)")
    .optional(),
  BAIDU_PUSH_ENDPOINT: postUrl.default("http://data.zz.baidu.com/urls"),
  PUSH_GATHER_MS: integer(0, 600_000, "a whole number of milliseconds from 0 to 600000").default(3000),
});

/** Neither engine set: nothing is sent. */
export interface PushConfig {
  /** Set whenever an engine is. */
  publicOrigin?: string;
  indexNow?: { key: string; endpoint: string };
  baidu?: { token: string; endpoint: string };
  /** How long addresses are gathered into one request. */
  gatherMs: number;
}

export function pushSettings(e: z.output<typeof pushEnv> & { PUBLIC_ORIGIN?: string }): PushConfig {
  // The addresses sent are absolute, and an engine checks them against the key's or the site's host.
  if (e.INDEXNOW_KEY && !e.PUBLIC_ORIGIN) needs("INDEXNOW_KEY", "PUBLIC_ORIGIN");
  if (e.BAIDU_PUSH_TOKEN && !e.PUBLIC_ORIGIN) needs("BAIDU_PUSH_TOKEN", "PUBLIC_ORIGIN");
  return {
    publicOrigin: e.PUBLIC_ORIGIN,
    indexNow: e.INDEXNOW_KEY ? { key: e.INDEXNOW_KEY, endpoint: e.INDEXNOW_ENDPOINT } : undefined,
    baidu: e.BAIDU_PUSH_TOKEN ? { token: e.BAIDU_PUSH_TOKEN, endpoint: e.BAIDU_PUSH_ENDPOINT } : undefined,
    gatherMs: e.PUSH_GATHER_MS,
  };
}
