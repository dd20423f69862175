// The miss budget counted across instances: a window as long as a full bucket takes to refill, holding as
// much, so burst and rate are the same whichever instance a client reaches (docs/operations.md#several-instances-redis_url).

import type { SharedTier } from "../redis/redis-connection.ts";
import { clientKeyOf } from "./client-key.ts";
import { type Admission, burstOf, type MissBudget, type MissGate } from "./miss-budget.ts";
import type { ClientHash } from "./shared-client-hash.ts";
import { createSharedLimit } from "./shared-limit.ts";

export function sharedMissBudget(tier: SharedTier, hashOf: ClientHash, local: MissBudget, ratePerMin: number): MissGate {
  if (ratePerMin === 0) return local;
  const points = burstOf(ratePerMin);
  const shared = createSharedLimit(tier, hashOf, { name: "miss", points, durationS: Math.ceil((points * 60) / ratePerMin) });
  return {
    async take(address): Promise<Admission> {
      const admitted = await shared(clientKeyOf(address));
      if (!admitted) return local.take(address);
      if (!admitted.ok) local.countRefusal();
      return admitted;
    },
  };
}
