/**
 * createApp builds the whole HTTP application from a config and its collaborators: the
 * request listener production serves, fresh cache hits answered first, then the Express
 * app. It never reads the environment and never listens (server/index.ts does both), so
 * tests run that same listener under supertest against stand-in upstreams.
 *
 * Every request is followed first (its access line and metrics), then mount order follows
 * the request path: request id, size limits, security
 * headers, fixed redirects and health, compression, /api/portal, static media, robots,
 * sitemap and feeds, the purge endpoint, pages, the catch-all redirect, and last the one
 * error handler.
 */
import type { IncomingMessage, RequestListener } from "node:http";
import compression from "compression";
import express from "express";
import { Registry } from "prom-client";
import { IMAGE_PATH } from "../shared/image-url.ts";
import { MissBudget } from "./admission/miss-budget.ts";
import { ReaderGuard, type ReaderLimits } from "./admission/reader-guard.ts";
import { type HoldingGate, holdingRefusals } from "./admission/refusal-hold.ts";
import { sharedMissBudget } from "./admission/shared-miss-budget.ts";
import { sharedReaderGuard } from "./admission/shared-reader-guard.ts";
import { answerCodec } from "./api-proxy/answer-codec.ts";
import { createApiReader } from "./api-proxy/api-reader.ts";
import { createPortalApiRouter } from "./api-proxy/router.ts";
import { apiAnswerHeaders } from "./api-proxy/send-api-answer.ts";
import { createUpstreamClient, type UpstreamClient } from "./api-proxy/upstream-client.ts";
import { IdleRecompressor } from "./cache/idle-recompressor.ts";
import { trackActivity } from "./cache/request-activity.ts";
import { createResponseCache, type ResponseCache } from "./cache/response-cache.ts";
import { createSharedCacheLevel } from "./cache/shared-cache-level.ts";
import type { Config } from "./config.ts";
import { createEnquiries, type Enquiries } from "./enquiries/enquiries.ts";
import { clientAddressReader, keepClientAddressesValid } from "./http/client-address.ts";
import { createErrorHandler, HttpError } from "./http/errors.ts";
import { redirectHome } from "./http/redirects.ts";
import { assignRequestId } from "./http/request-id.ts";
import { securityHeaderList, securityHeaders } from "./http/security-headers.ts";
import type { FolderKeeper } from "./images/disk-cache.ts";
import { createImageEndpoint, type ImageEndpoint } from "./images/router.ts";
import { createLogger, type Logger } from "./logger.ts";
import { type AppMetrics, createAppMetrics } from "./operations/app-metrics.ts";
import { createHealthRouter, createReadiness, type Phase, type Readiness } from "./operations/health.ts";
import { createRequestLog } from "./operations/request-log.ts";
import { createPageCache, type PageCache } from "./pages/page-cache.ts";
import { createPagesRouter } from "./pages/router.ts";
import { DEMO_MEDIA_DIR } from "./project-root.ts";
import { createPurgeRouter } from "./purge/purge-route.ts";
import { createPurger, type Purger } from "./purge/purger.ts";
import { joinSharedPurges, type SharedPurges } from "./purge/shared-purges.ts";
import { createPubSub } from "./redis/pub-sub.ts";
import { connectSharedTier, type SharedTier, siteIdOf } from "./redis/redis-connection.ts";
import type { PageRenderer } from "./render/page-renderer.ts";
import { uncachedReader } from "./search/read-content.ts";
import { searchPageGuard } from "./search/search-page-guard.ts";
import { createSearchInLangs, type SiteSearch } from "./search/site-search.ts";
import { createSeoRouter } from "./seo/router.ts";

export interface AppDeps {
  /** Where the upstream content API is; defaults to config.apiBaseUrl (index.ts passes the embedded one). */
  upstreamUrl?: string;
  logger?: Logger;
  /** The embedded content API's database, for readiness. */
  database?: { ping(): Promise<void> };
  /** Folder of the demo site's images, served under /portal/media/. */
  mediaDir?: string;
  now?: () => number;
  /** Renders the pages under /portal; without one only the API and health answer. */
  renderer?: PageRenderer;
  /** Image resizes at once (default: one per core). */
  imageResizeSlots?: number;
  /** Who keeps the image folder's bound, when not this process (a cluster worker's primary). */
  imageFolderKeeper?: FolderKeeper;
  /** Where the app's metrics go (index.ts adds the process's own); a registry of its own by default. */
  metricsRegistry?: Registry;
  /** Where the process is in its life, for readiness (index.ts: draining once SIGTERM came); serving by default. */
  phase?: () => Phase;
  /** The waits between enquiry delivery attempts and polls (tests shorten them). */
  enquiryDelivery?: { backoffBaseMs?: number; pollMs?: number };
}

export interface PortalServices {
  cache: ResponseCache;
  pageCache: PageCache | undefined;
  /** Recompresses answers read again, when the server is idle. */
  recompressor: IdleRecompressor;
  upstream: UpstreamClient;
  images: ImageEndpoint;
  logger: Logger;
  /** Purges this process's caches; fan-out channels subscribe to it (server/purge/purger.ts). */
  purger: Purger;
  /** The purges shared with other instances, with REDIS_URL. */
  sharedPurges: SharedPurges | undefined;
  /** The tier shared with other instances (REDIS_URL); undefined: everything is this instance's own. */
  sharedTier: SharedTier | undefined;
  /** Request, cache and upstream figures; `metrics.registerCache` measures one more cache. */
  metrics: AppMetrics;
  /** Site search: its index (started by server/index.ts) and the answers of /api/portal/search. */
  search: SiteSearch;
  /** The readiness check behind /portal/readyz (at most one a second). */
  readiness: () => Promise<Readiness>;
  /** The contact form's enquiries: their store and their delivery. */
  enquiries: Enquiries;
  /** Releases the upstream connection pool (and the Redis connections), and stops enquiry delivery. */
  close(): Promise<void>;
}

/** What production serves: fresh API and page cache hits first, then the Express app. */
export type PortalApp = RequestListener & { portal: PortalServices };

/** Longer request targets get 414 before any routing work. */
const MAX_URL_LENGTH = 8 * 1024;

export function createApp(config: Config, deps: AppDeps = {}): PortalApp {
  const upstreamUrl = deps.upstreamUrl ?? config.apiBaseUrl;
  if (!upstreamUrl) throw new Error("createApp needs an upstream: config.apiBaseUrl or deps.upstreamUrl");
  const logger = deps.logger ?? createLogger(config.logLevel);
  const localReaderGuard = new ReaderGuard({
    ratePerMin: config.reader.ratePerMin,
    dedupWindowMs: config.reader.dedupWindowMs,
    now: deps.now,
  });
  // Charged only behind the hot paths below, where a request starts upstream work or a render; hits never reach it.
  const localMissBudget = new MissBudget({ ratePerMin: config.missRatePerMin, now: deps.now });
  const registry = deps.metricsRegistry ?? new Registry();
  const metrics = createAppMetrics(registry, { missBudget: localMissBudget, readerGuard: localReaderGuard });
  const upstream = createUpstreamClient({
    baseUrl: upstreamUrl,
    timeoutMs: config.upstreamTimeoutMs,
    onOutcome: metrics.observeUpstream,
  });
  // Instances share when they serve the same content: the same upstream, or the same embedded database.
  const sharedTier = config.redisUrl
    ? connectSharedTier(config.redisUrl, siteIdOf(config.apiBaseUrl ?? config.databaseUrl), logger)
    : undefined;
  // A lock or a claim outlives the upstream request it covers.
  const sharedHoldMs = config.upstreamTimeoutMs + 1000;
  const commonHeaders = securityHeaderList({ dev: config.dev, https: config.publicOrigin?.startsWith("https:") ?? false });
  const answerHeaders = apiAnswerHeaders(commonHeaders);
  const cache = createResponseCache({
    maxBytes: config.cache.maxBytes,
    staleMs: config.cache.staleMs,
    now: deps.now,
    onRefreshError: (key, err) => logger.warn({ key, err: err instanceof Error ? err.message : String(err) }, "background refresh failed"),
    secondLevel: sharedTier
      ? createSharedCacheLevel(sharedTier, {
          namespace: "api",
          codec: answerCodec(answerHeaders),
          staleMs: config.cache.staleMs,
          lockMs: sharedHoldMs,
          now: deps.now,
        })
      : undefined,
  });
  const apiReader = createApiReader(cache, upstream, config.cache, answerHeaders, config.contentLangParam);
  // The index reads the content API itself; its answers to the search call are read as any other call's.
  const search = createSearchInLangs({
    file: config.search.indexPath,
    refreshMs: config.search.refreshMs,
    contentLang: config.contentLangParam !== undefined,
    reader: uncachedReader(upstream, config.contentLangParam),
    logger,
    answerHeaders,
    inFlight: () => activity.inFlight(),
    now: deps.now,
  });
  const reader = search.readerWith(apiReader);
  metrics.registerSearch(() => search.figures());
  metrics.registerCache("api", cache);
  const readerGuard: ReaderLimits = sharedTier
    ? sharedReaderGuard(sharedTier, localReaderGuard, { ...config.reader, claimMs: sharedHoldMs })
    : localReaderGuard;
  const missBudget: HoldingGate = holdingRefusals(
    sharedTier ? sharedMissBudget(sharedTier, localMissBudget, config.missRatePerMin) : localMissBudget,
    { now: deps.now, countRefusal: () => localMissBudget.countRefusal() },
  );
  const readiness = createReadiness({
    upstream,
    database: deps.database,
    sharedTier,
    phase: deps.phase,
    // What can still be answered while the upstream cannot: both caches serve stale entries on its errors.
    cachedEntries: () => cache.stats().entries + (pageCache?.stats().entries ?? 0),
    now: deps.now,
  });
  const activity = trackActivity(deps.now);
  const recompressor = new IdleRecompressor({ inFlight: activity.inFlight, lastActivityMs: activity.lastMs, now: deps.now });

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy ?? false);
  keepClientAddressesValid(app);
  // The client's address as Express would give it, for what runs before Express (the hot paths, the access line).
  const clientAddressOf = clientAddressReader(app);
  // Queries are parsed per call from the raw URL; Express's own parser is not needed.
  app.set("query parser", false);

  app.use(assignRequestId);
  app.use((req, _res, next) => {
    next(req.originalUrl.length > MAX_URL_LENGTH ? new HttpError(414, "request URL is too long") : undefined);
  });
  app.use(securityHeaders(commonHeaders));
  app.get(["/", "/portal", "/portal/"], redirectHome(config.lang));
  app.use(createHealthRouter({ readiness, missBudget }));
  // Before compression: images are compressed already.
  const images = createImageEndpoint({
    config,
    upstreamUrl,
    mediaDir: deps.mediaDir ?? DEMO_MEDIA_DIR,
    missBudget,
    logger,
    resizeSlots: deps.imageResizeSlots,
    folderKeeper: deps.imageFolderKeeper,
    now: deps.now,
  });
  app.get(IMAGE_PATH, images.handler);
  metrics.registerCache("image", images.memory);
  app.use(compression({ threshold: 1024 }));
  const enquiries = createEnquiries(config, { logger, registry, sharedTier, now: deps.now, ...deps.enquiryDelivery });
  // Before /api/portal (which would proxy it) and the pages (which answer GETs only); the form page is one of theirs.
  app.use(enquiries.router(() => pages?.sendOwnPage));
  const refuseEarly = (req: IncomingMessage) => missBudget.refuseEarly(clientAddressOf(req));
  const api = createPortalApiRouter({
    config,
    reader,
    upstream,
    readerGuard,
    missBudget,
    // With instances sharing answers, a miss here may be another's fresh answer, which only Redis can tell.
    refuseEarly: sharedTier ? undefined : refuseEarly,
    answerHeaders,
    maxUrlLength: MAX_URL_LENGTH,
    recompressor,
  });
  app.use("/api/portal", api);
  app.use(
    "/portal/media",
    express.static(deps.mediaDir ?? DEMO_MEDIA_DIR, {
      immutable: true,
      maxAge: "365d",
      index: false,
      redirect: false,
      fallthrough: false,
    }),
  );
  // Before the pages: /portal/message/news/rss.xml would otherwise be a news detail with a bad id.
  app.use(createSeoRouter({ config, reader: apiReader, logger, now: deps.now }));
  // Development renders from changing sources, so it never keeps pages.
  const pageCache =
    deps.renderer && config.pageCache && !config.dev
      ? createPageCache({
          maxBytes: config.cache.maxBytes,
          staleMs: config.cache.staleMs,
          now: deps.now,
          onRefreshError: (key, err) => logger.warn({ err, key }, "page re-render failed"),
        })
      : undefined;
  const purger = createPurger({ cache, pageCache, classify: config.classify, contentLang: config.contentLangParam !== undefined });
  purger.onPurge((request) => search.onPurge(request));
  const sharedPurges = sharedTier ? joinSharedPurges(purger, sharedTier, createPubSub(sharedTier), logger) : undefined;
  app.use(createPurgeRouter({ secrets: config.purgeSecrets, purger, claimId: sharedPurges?.claimId, now: deps.now }));
  if (pageCache) metrics.registerCache("page", pageCache);
  const { renderer } = deps;
  const pages = renderer
    ? createPagesRouter({
        config,
        reader,
        renderer,
        logger,
        pageCache,
        missBudget,
        refuseEarly,
        refusalHeaders: commonHeaders,
        recompressor,
        observeStage: metrics.observeRenderStage,
        perRequestState: () => ({ form: { token: enquiries.intake.keys.issue((deps.now ?? Date.now)()) } }),
      })
    : undefined;
  if (renderer?.assets) app.use(renderer.assets.path, renderer.assets.handler);
  app.get(searchPageGuard.path, searchPageGuard.handler);
  if (pages) {
    app.use("/portal", pages);
    metrics.registerShared("page", pages.sharedRenders);
  }
  app.use(redirectHome(config.lang));
  app.use(createErrorHandler(logger));

  const follow = createRequestLog({ logger, metrics, clientAddressOf });
  const handle: RequestListener = (req, res) => {
    activity.begin(res);
    const record = follow(req, res);
    const answered = api.fastPath(req, res) ?? pages?.fastPath(req, res);
    if (answered === undefined) app(req, res);
    else if (answered !== "refused") record.cache = answered;
  };
  return Object.assign(handle, {
    portal: {
      cache,
      pageCache,
      recompressor,
      upstream,
      images,
      logger,
      purger,
      sharedPurges,
      sharedTier,
      metrics,
      search,
      readiness,
      enquiries,
      close: async () => {
        search.close();
        upstream.close();
        images.close();
        await enquiries.close();
        sharedTier?.close();
      },
    },
  });
}
