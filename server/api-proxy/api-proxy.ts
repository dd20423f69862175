// The API proxy as the app mounts it: the upstream client, the API cache, its reader (through what else answers
// here, such as the search), and the /api/portal router with its fast path.
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
import { createPreviewReader } from "./preview-reader.ts";
import { createPortalApiRouter } from "./router.ts";
import { apiAnswerHeaders } from "./send-api-answer.ts";
import { createUpstreamClient, type UpstreamClient, type UpstreamOutcome } from "./upstream-client.ts";

export type { UpstreamClient };

type Headers = readonly (readonly [string, string])[];

interface ApiProxySettings {
  cache: Config["cache"];
  classify: Config["classify"];
  contentLangParam: string | undefined;
  maxUrlLength: number;
  upstreamTimeoutMs: number;
  /** What the upstream reads as "show drafts" (PREVIEW_PARAM). */
  previewParam: string;
}

interface ApiProxyDeps<A> {
  upstreamUrl: string;
  onUpstreamOutcome: (outcome: UpstreamOutcome) => void;
  tier: {
    missBudget: HoldingGate;
    missesAreOwn: boolean;
    readerLimits: ReaderLimits;
    cacheLevel(namespace: string, codec: SharedCodec<CachedAnswer>): SecondLevel<CachedAnswer> | undefined;
  };
  commonHeaders: Headers;
  /** Calls answered here rather than upstream (the site search); they read through the proxy's upstream client. */
  localAnswers: (parts: { upstream: UpstreamClient; answerHeaders: Headers }) => A;
  clientAddressOf: (req: IncomingMessage) => string | undefined;
  recompressor: IdleRecompressor;
  /** Whether a request is a preview (docs/behaviour.md#preview). */
  inPreview: (req: IncomingMessage) => boolean;
  logger: Logger;
  now?: () => number;
}

export function createApiProxy<A extends { readerWith(cached: ApiReader): ApiReader }>(settings: ApiProxySettings, deps: ApiProxyDeps<A>) {
  const { tier, logger } = deps;
  const upstream = createUpstreamClient({
    baseUrl: deps.upstreamUrl,
    timeoutMs: settings.upstreamTimeoutMs,
    onOutcome: deps.onUpstreamOutcome,
  });
  const answerHeaders = apiAnswerHeaders(deps.commonHeaders);
  const localAnswers = deps.localAnswers({ upstream, answerHeaders });
  const cache = createResponseCache({
    maxBytes: settings.cache.maxBytes,
    staleMs: settings.cache.staleMs,
    now: deps.now,
    onRefreshError: (key, err) => logger.warn({ key, err: err instanceof Error ? err.message : String(err) }, "background refresh failed"),
    secondLevel: tier.cacheLevel("api", answerCodec(answerHeaders)),
  });
  const cachedReader = createApiReader(cache, upstream, settings.cache, answerHeaders, settings.contentLangParam);
  const reader = localAnswers.readerWith(cachedReader);
  const previewReader = localAnswers.readerWith(
    createPreviewReader(upstream, answerHeaders, settings.contentLangParam, settings.previewParam),
  );
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
    preview: { inPreview: deps.inPreview, reader: previewReader, param: settings.previewParam },
  });
  return { upstream, localAnswers, cache, cachedReader, reader, previewReader, router };
}
