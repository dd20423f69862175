/** The shared tier: undefined, every instance keeps its own state. */

import { z } from "zod";

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
});

export function redisSettings(e: z.output<typeof redisEnv>): { redisUrl?: string } {
  return { redisUrl: e.REDIS_URL };
}
