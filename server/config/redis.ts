/** The shared tier: undefined, every instance keeps its own state. */

import { z } from "zod";
import { integer } from "./value-kinds.ts";

const redisUrl = z
  .string()
  .trim()
  .refine((raw) => {
    try {
      const url = new URL(raw);
      return (url.protocol === "redis:" || url.protocol === "rediss:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "must be a redis:// or rediss:// URL such as redis://redis.internal:6379");

export const redisEnv = z.object({
  REDIS_URL: redisUrl.optional(),
  REDIS_DEADLINE_MS: integer(10, 10_000, "a whole number of milliseconds from 10 to 10000").default(100),
});

export interface RedisConfig {
  /** Undefined: every instance keeps its own state. */
  redisUrl?: string;
  /** How long a request waits for Redis before it goes on with this instance's own state. */
  redisDeadlineMs: number;
}

export function redisSettings(e: z.output<typeof redisEnv>): RedisConfig {
  return { redisUrl: e.REDIS_URL, redisDeadlineMs: e.REDIS_DEADLINE_MS };
}
