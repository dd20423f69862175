/** The API cache, its readers' budgets and the miss budget (docs/behaviour.md#miss-budget). */

import { z } from "zod";
import { badPart, integer, ms } from "./value-kinds.ts";

/** `/message/=10000,/sys/=300000` */
const ttlOverrides = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    const out: { prefix: string; ttlMs: number }[] = [];
    for (const part of raw.split(",").filter((p) => p.trim() !== "")) {
      const match = /^\s*(\/[^=\s]*)=(\d{1,9})\s*$/.exec(part);
      if (!match) {
        ctx.addIssue({
          code: "custom",
          message: `must be path=milliseconds pairs joined by commas, e.g. /message/=10000,/sys/=300000${badPart(raw, part)}`,
        });
        return z.NEVER;
      }
      out.push({ prefix: match[1] as string, ttlMs: Number(match[2]) });
    }
    return out.sort((a, b) => b.prefix.length - a.prefix.length);
  });

export const cacheEnv = z.object({
  CACHE_TTL_MS: ms().default(30_000),
  CACHE_TTL_OVERRIDES: ttlOverrides.default([]),
  CACHE_STALE_MS: ms(30 * 86_400_000).default(600_000),
  CACHE_MAX_MB: integer(1, 65536, "a whole number of megabytes from 1 to 65536").default(64),
  READER_DEDUP_WINDOW_MS: ms().default(600_000),
  READER_RATE_PER_MIN: integer(1, 100_000, "a whole number from 1 to 100000").default(30),
  MISS_RATE_PER_MIN: integer(0, 1_000_000, "a whole number from 0 (no limit) to 1000000").default(600),
});

export interface CacheConfig {
  cache: {
    ttlMs: number;
    ttlOverrides: { prefix: string; ttlMs: number }[];
    staleMs: number;
    maxBytes: number;
  };
  reader: { dedupWindowMs: number; ratePerMin: number };
  /** 0: no limit (docs/behaviour.md#miss-budget). */
  missRatePerMin: number;
}

export function cacheSettings(e: z.output<typeof cacheEnv>): CacheConfig {
  return {
    cache: {
      ttlMs: e.CACHE_TTL_MS,
      ttlOverrides: e.CACHE_TTL_OVERRIDES,
      staleMs: e.CACHE_STALE_MS,
      maxBytes: e.CACHE_MAX_MB * 1024 * 1024,
    },
    reader: { dedupWindowMs: e.READER_DEDUP_WINDOW_MS, ratePerMin: e.READER_RATE_PER_MIN },
    missRatePerMin: e.MISS_RATE_PER_MIN,
  };
}
