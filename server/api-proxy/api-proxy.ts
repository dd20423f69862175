// The API proxy as the app mounts it: the API cache, its reader, and the /api/portal router with its fast path.
import type { IncomingMessage } from "node:http";
import type { ReaderLimits } from "../admission/reader-guard.ts";
import type { HoldingGate } from "../admission/refusal-hold.ts";
import type { IdleRecompressor } from "../cache/idle-recompressor.ts";
import { type CachedAnswer, createResponseCache } from "../cache/response-cache.ts";
import type { SharedCodec } from "../cache/shared-cache-level.ts";
import type { SecondLevel } from "../cache/swr-cache.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { answerCodec } from "./answer-codec.ts";
import { type ApiReader, createApiReader } from "./api-reader.ts";
import { createPortalApiRouter } from "./router.ts";
import type { UpstreamClient } from "./upstream-client.ts";

interface ApiProxySettings {
  cache: Config["cache"];
  classify: Config["classify"];
  contentLangParam: string | undefined;
  maxUrlLength: number;
}

interface ApiProxyDeps {
  upstream: UpstreamClient;
  tier: {
    missBudget: HoldingGate;
    missesAreOwn: boolean;
    readerLimits: ReaderLimits;
    cacheLevel(namespace: string, codec: SharedCodec<CachedAnswer>): SecondLevel<CachedAnswer> | undefined;
  };
  answerHeaders: readonly (readonly [string, string])[];
  readerOf: (cached: ApiReader) => ApiReader;
  clientAddressOf: (req: IncomingMessage) => string | undefined;
  recompressor: IdleRecompressor;
  logger: Logger;
  now?: () => number;
}

export function createApiProxy(settings: ApiProxySettings, deps: ApiProxyDeps) {
  const { upstream, tier, answerHeaders, logger } = deps;
  const cache = createResponseCache({
    maxBytes: settings.cache.maxBytes,
    staleMs: settings.cache.staleMs,
    now: deps.now,
    onRefreshError: (key, err) => logger.warn({ key, err: err instanceof Error ? err.message : String(err) }, "background refresh failed"),
    secondLevel: tier.cacheLevel("api", answerCodec(answerHeaders)),
  });
  const cachedReader = createApiReader(cache, upstream, settings.cache, answerHeaders, settings.contentLangParam);
  const reader = deps.readerOf(cachedReader);
  const router = createPortalApiRouter({
    settings: { classify: settings.classify, contentLang: settings.contentLangParam !== undefined, staleMs: settings.cache.staleMs },
    reader,
    upstream,
    readerGuard: tier.readerLimits,
    missBudget: tier.missBudget,
    // With instances sharing answers, a miss here may be another's fresh answer, which only Redis can tell.
    refuseEarly: tier.missesAreOwn ? (req) => tier.missBudget.refuseEarly(deps.clientAddressOf(req)) : undefined,
    answerHeaders,
    maxUrlLength: settings.maxUrlLength,
    recompressor: deps.recompressor,
  });
  return { cache, cachedReader, reader, router };
}
