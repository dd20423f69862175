// Per-client limits counted in Redis (one fixed window) under the client's keyed hash, this instance's own answering
// while Redis is away or a count read back is not a number (docs/behaviour.md#api-cache).
import { ReplyError } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { SharedTier } from "../redis/redis-connection.ts";
import type { Admission } from "./miss-budget.ts";
import type { ClientHash } from "./shared-client-hash.ts";

type SharedLimit = (client: string) => Promise<Admission | undefined>;

export interface LimitSpec {
  name: string;
  points: number;
  durationS: number;
}

export type ClientLimit = (client: string) => Promise<Admission>;

const refusalOf = (refusal: RateLimiterRes): Admission => ({ ok: false, retryAfterS: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) });

export function localLimit(limit: LimitSpec): ClientLimit {
  const local = new RateLimiterMemory({ points: limit.points, duration: limit.durationS });
  return async (client) => {
    try {
      await local.consume(client);
      return { ok: true };
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return refusalOf(refusal);
      throw refusal;
    }
  };
}

/** `own`: this instance's count, answering while Redis cannot. */
export function sharedOrOwnLimit(tier: SharedTier, hashOf: ClientHash, limit: LimitSpec, own: ClientLimit): ClientLimit {
  const shared = createSharedLimit(tier, hashOf, limit);
  return async (client) => (await shared(client)) ?? own(client);
}

export function createSharedLimit(tier: SharedTier, hashOf: ClientHash, limit: LimitSpec): SharedLimit {
  const limiter = new RateLimiterRedis({
    storeClient: tier.redis,
    keyPrefix: tier.key("limit", limit.name),
    points: limit.points,
    duration: limit.durationS,
  });
  return async (client) => {
    const hashed = await hashOf(client);
    if (hashed === undefined) return undefined;
    return tier.run(async (redis): Promise<Admission | undefined> => {
      try {
        await limiter.consume(hashed);
        return { ok: true };
      } catch (refusal) {
        if (refusal instanceof ReplyError) {
          const key = limiter.getKey(hashed);
          tier.malformed("a shared limit's count", { key, err: (refusal as Error).message });
          await redis.del(key);
          return undefined;
        }
        // Over the limit is a refusal carrying the time left; anything else is Redis failing.
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return refusalOf(refusal);
      }
    }, undefined);
  };
}
