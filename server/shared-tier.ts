// What instances share (docs/operations.md#several-instances-redis_url), counted in Redis; without Redis, this instance's
// own behind the same interfaces.

import { instanceLimit } from "./admission/cluster-limit.ts";
import { MissBudget, type MissGate } from "./admission/miss-budget.ts";
import { ReaderGuard, type ReaderLimits } from "./admission/reader-guard.ts";
import { type HoldingGate, holdingRefusals } from "./admission/refusal-hold.ts";
import { sharedClientHash } from "./admission/shared-client-hash.ts";
import { type ClientLimit, type LimitSpec, sharedOrOwnLimit } from "./admission/shared-limit.ts";
import { sharedMissBudget } from "./admission/shared-miss-budget.ts";
import { sharedReaderGuard } from "./admission/shared-reader-guard.ts";
import { createSharedCacheLevel, type SharedCodec } from "./cache/shared-cache-level.ts";
import type { SecondLevel } from "./cache/swr-cache.ts";
import type { Config } from "./config.ts";
import type { Logger } from "./logger.ts";
import { createPubSub, type PubSub } from "./redis/pub-sub.ts";
import { connectSharedTier, type SharedTier, type SharedTierState, siteIdOf } from "./redis/redis-connection.ts";

interface SharedTierSettings {
  redisUrl?: string;
  redisDeadlineMs: number;
  /** Instances share when they serve the same content: the same upstream, or the same embedded database. */
  contentSource: string;
  /** FORM_SECRET: keys the hash of a client in Redis keys; without it, a salt kept in Redis does. */
  clientSecret?: string;
  upstreamTimeoutMs: number;
  missRatePerMin: number;
  reader: { ratePerMin: number; dedupWindowMs: number };
  staleMs: number;
}

interface SharedTierParts {
  connection: SharedTier | undefined;
  missBudget: HoldingGate;
  /** False when a miss here may be another instance's fresh answer, which only Redis can tell. */
  missesAreOwn: boolean;
  readerLimits: ReaderLimits;
  /** This instance's own counts, read by the metrics whoever decides. */
  counts: { missBudget: MissBudget; readerGuard: ReaderGuard };
  cacheLevel<V>(namespace: string, codec: SharedCodec<V>): SecondLevel<V> | undefined;
  /** Counted in Redis, else by this instance (its cluster's workers together). */
  clientLimit(spec: LimitSpec): ClientLimit;
  purgeChannel: { connection: SharedTier; pubsub: PubSub } | undefined;
  state(): SharedTierState | "not used";
  close(): void;
}

export function sharedTierSettingsOf(config: Config): SharedTierSettings {
  const { redisUrl, redisDeadlineMs, upstreamTimeoutMs, missRatePerMin, reader } = config;
  return {
    redisUrl,
    redisDeadlineMs,
    contentSource: config.apiBaseUrl ?? config.databaseUrl,
    clientSecret: config.enquiries.instancesShareFormSecret ? config.enquiries.formSecret : undefined,
    upstreamTimeoutMs,
    missRatePerMin,
    reader,
    staleMs: config.cache.staleMs,
  };
}

export function createSharedTier(settings: SharedTierSettings, logger: Logger, now?: () => number): SharedTierParts {
  const readerGuard = new ReaderGuard({ ...settings.reader, now });
  const missBudget = new MissBudget({ ratePerMin: settings.missRatePerMin, now });
  const counts = { missBudget, readerGuard };
  const ownLimit = (spec: LimitSpec) => instanceLimit(spec, logger);
  const held = (gate: MissGate) => holdingRefusals(gate, { now, countRefusal: () => missBudget.countRefusal() });
  if (!settings.redisUrl) {
    return {
      ...{ connection: undefined, missBudget: held(missBudget), missesAreOwn: true, readerLimits: readerGuard, counts },
      ...{ cacheLevel: () => undefined, clientLimit: ownLimit, purgeChannel: undefined, state: () => "not used", close() {} },
    };
  }
  const tier = connectSharedTier(settings.redisUrl, siteIdOf(settings.contentSource), logger, settings.redisDeadlineMs);
  // A lock or a claim outlives the upstream request it covers.
  const holdMs = settings.upstreamTimeoutMs + 1000;
  const hashOf = sharedClientHash(tier, settings.clientSecret, now);
  return {
    connection: tier,
    missBudget: held(sharedMissBudget(tier, hashOf, missBudget, settings.missRatePerMin)),
    missesAreOwn: false,
    readerLimits: sharedReaderGuard(tier, hashOf, readerGuard, { ...settings.reader, claimMs: holdMs }),
    counts,
    cacheLevel: (namespace, codec) => createSharedCacheLevel(tier, { namespace, codec, staleMs: settings.staleMs, lockMs: holdMs, now }),
    clientLimit: (spec) => sharedOrOwnLimit(tier, hashOf, spec, ownLimit(spec)),
    purgeChannel: { connection: tier, pubsub: createPubSub(tier) },
    state: () => tier.state(),
    close: () => tier.close(),
  };
}
