// The reader rules across instances: one rate per client, one count per (client, type, pid) claimed in Redis under
// its keyed hash; the instance's own guard stays in front and answers alone while Redis is away
// (docs/behaviour.md#reader-updates).

import type { SharedTier } from "../redis/redis-connection.ts";
import { DUPLICATE, type Duplicate, type ReaderGuard, type ReaderLimits } from "./reader-guard.ts";
import type { ClientHash } from "./shared-client-hash.ts";
import { createSharedLimit } from "./shared-limit.ts";

interface SharedReaderOptions {
  ratePerMin: number;
  dedupWindowMs: number;
  /** How long a claim holds while its PUT is forwarded: the upstream timeout and a margin. */
  claimMs: number;
}

export function sharedReaderGuard(tier: SharedTier, hashOf: ClientHash, local: ReaderGuard, options: SharedReaderOptions): ReaderLimits {
  const rate = createSharedLimit(tier, hashOf, { name: "reader", points: options.ratePerMin, durationS: 60 });
  const claimed = async <T>(count: string, forward: () => Promise<T | Duplicate>, succeeded: (result: T) => boolean) => {
    const hashed = await hashOf(count);
    // No instance-wide hash known yet (Redis away): this instance's own count, as when a claim cannot be made.
    if (hashed === undefined) return forward();
    const key = tier.key("reader-seen", hashed);
    const claim = await tier.run((redis) => redis.set(key, "counting", "PX", options.claimMs, "NX"), "unshared");
    if (claim === null) return DUPLICATE;
    const release = () => tier.run((redis) => redis.del(key), 0);
    let result: T | Duplicate;
    try {
      result = await forward();
    } catch (err) {
      if (claim === "OK") await release();
      throw err;
    }
    if (claim !== "OK") return result;
    if (result !== DUPLICATE && succeeded(result)) {
      await tier.run((redis) => redis.set(key, "counted", "PX", options.dedupWindowMs), undefined);
    } else {
      await release();
    }
    return result;
  };
  return {
    async admit(client) {
      const shared = await rate(client);
      if (shared && !shared.ok) local.countLimited();
      return shared ?? local.admit(client);
    },
    forwardOnce(key, forward, succeeded) {
      if (options.dedupWindowMs === 0) return local.forwardOnce(key, forward, succeeded);
      return local.forwardOnce(key, () => claimed(key, forward, succeeded), succeeded);
    },
  };
}
