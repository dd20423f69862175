// createApp composes the listener production serves (fast paths first, then Express) from a config and its parts.
// It never reads the environment nor listens (server/index.ts does), so tests run that same listener.
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import compression from "compression";
import express from "express";
import { Registry } from "prom-client";
import { IMAGE_PATH } from "../shared/image-url.ts";
import { PREVIEW_API_PREFIX } from "../shared/preview.ts";
import { setSiteLangs } from "../shared/site-langs.ts";
import { createApiProxy, type UpstreamClient } from "./api-proxy/api-proxy.ts";
import { IdleRecompressor } from "./cache/idle-recompressor.ts";
import { trackActivity } from "./cache/request-activity.ts";
import { fastPathsFirst } from "./cache/request-fast-path.ts";
import type { ResponseCache } from "./cache/response-cache.ts";
import type { Config } from "./config.ts";
import { createEnquiries, type Enquiries } from "./enquiries/enquiries.ts";
import { createBaseApp, MAX_URL_LENGTH } from "./http/base-app.ts";
import { createErrorHandler } from "./http/errors.ts";
import { redirectHome } from "./http/redirects.ts";
import { securityHeaderList } from "./http/security-headers.ts";
import { createImages, type ImageEndpoint } from "./images/images.ts";
import { createLogger, type Logger } from "./logger.ts";
import {
  type AppMetrics,
  countAsMissing,
  createOperations,
  type MissingPagesLog,
  type Phase,
  type Readiness,
} from "./operations/operations.ts";
import { createPages, type PageCache } from "./pages/pages.ts";
import { createPreview, onlyInPreview } from "./preview/preview.ts";
import { DEMO_MEDIA_DIR } from "./project-root.ts";
import { createPurge, type Purger, type SharedPurges } from "./purge/purge.ts";
import { createPush, keyFilePath, type Push } from "./push/push.ts";
import { createRedirectRules } from "./redirect-rules/redirect-rules.ts";
import type { RuleTable } from "./redirect-rules/rule-table.ts";
import type { SharedTier } from "./redis/redis-connection.ts";
import type { PageRenderer } from "./render/render.ts";
import { createSearch, type IndexChanges, type SiteSearch } from "./search/search.ts";
import { createSeo } from "./seo/seo.ts";
import { createSharedTier, sharedTierSettingsOf } from "./shared-tier.ts";
import { createWechat } from "./wechat/wechat.ts";

interface AppDeps {
  /** Where the upstream content API is; defaults to config.apiBaseUrl (index.ts passes the embedded one). */
  upstreamUrl?: string;
  logger?: Logger;
  database?: { ping(): Promise<void> };
  mediaDir?: string;
  now?: () => number;
  renderer?: PageRenderer;
  imageResizeSlots?: number;
  metricsRegistry?: Registry;
  phase?: () => Phase;
  enquiryDelivery?: { backoffBaseMs?: number; pollMs?: number };
  push?: { backoffBaseMs?: number; pollMs?: number; now?: () => number };
  /** REDIRECTS_FILE as loaded at start (server/index.ts); absent: loaded here. */
  redirectRules?: RuleTable;
}

interface PortalServices {
  cache: ResponseCache;
  pageCache: PageCache | undefined;
  recompressor: IdleRecompressor;
  upstream: UpstreamClient;
  images: ImageEndpoint;
  logger: Logger;
  purger: Purger;
  sharedPurges: SharedPurges | undefined;
  /** The Redis connection shared with other instances (REDIS_URL); undefined: everything is this instance's own. */
  sharedTier: SharedTier | undefined;
  metrics: AppMetrics;
  search: SiteSearch;
  /** The missing-pages log the internal listener's `/not-found` reads. */
  missingPages: MissingPagesLog;
  readiness: () => Promise<Readiness>;
  enquiries: Enquiries;
  push: Push;
  close(): Promise<void>;
}

export type PortalApp = RequestListener & { portal: PortalServices };

function settingsOf(config: Config) {
  const { cache, classify, contentLangParam, lang, langs, publicOrigin } = config;
  const contentLang = contentLangParam !== undefined;
  const { upstreamTimeoutMs, missRatePerMin, apiBaseUrl } = config;
  return {
    tier: sharedTierSettingsOf(config),
    csp: { dev: config.dev, https: publicOrigin?.startsWith("https:") ?? false },
    search: {
      file: config.search.indexPath,
      refreshMs: config.search.refreshMs,
      cacheKb: config.search.cacheKb,
      contentLang,
      contentLangParam,
    },
    api: { cache, classify, contentLangParam, maxUrlLength: MAX_URL_LENGTH, upstreamTimeoutMs, previewParam: config.preview.param },
    preview: { preview: config.preview, publicOrigin },
    images: { images: config.images, cache, apiBaseUrl, publicOrigin, missRatePerMin, upstreamTimeoutMs },
    seo: { publicOrigin, cache, contentLang, lang },
    pages: {
      site: { lang, langs, contentLangParam, classify, homeScript: config.homeScript, publicOrigin, wechat: config.wechat !== undefined },
      dev: config.dev,
      staleMs: cache.staleMs,
      pageCache: config.pageCache,
      maxBytes: cache.maxBytes,
    },
    purge: { secrets: config.purgeSecrets, classify, contentLang },
  };
}

const MEDIA_OPTIONS = { immutable: true, maxAge: "365d", index: false, redirect: false, fallthrough: false };

export function createApp(config: Config, deps: AppDeps = {}): PortalApp {
  const upstreamUrl = deps.upstreamUrl ?? config.apiBaseUrl;
  if (!upstreamUrl) throw new Error("createApp needs an upstream: config.apiBaseUrl or deps.upstreamUrl");
  const { now, renderer, mediaDir = DEMO_MEDIA_DIR } = deps;
  // Before any part is made: the routes, keys and lists of languages read them.
  setSiteLangs(config.langs);
  const settings = settingsOf(config);
  const logger = deps.logger ?? createLogger(config.logLevel);
  const tier = createSharedTier(settings.tier, logger, now);
  const registry = deps.metricsRegistry ?? new Registry();
  const commonHeaders = securityHeaderList(settings.csp);
  const activity = trackActivity(now);
  const recompressor = new IdleRecompressor({ inFlight: activity.inFlight, lastActivityMs: activity.lastMs, now });
  const { app, clientAddressOf } = createBaseApp(config.trustProxy, commonHeaders);
  const operationsDeps = { registry, counts: tier.counts, logger, clientAddressOf, sharedTier: tier.connection, phase: deps.phase, now };
  const { metrics, health, requestLog, missingPages } = createOperations(operationsDeps);
  const common = { tier, clientAddressOf, commonHeaders, recompressor, logger, now };
  const proxyDeps = { ...common, upstreamUrl, onUpstreamOutcome: metrics.observeUpstream };
  // Bound late: the engines' part reads items through the upstream client made below. A build from
  // nothing (a new instance) compares with nothing, so it tells the engines nothing.
  const onIndexChanges = ({ fromScratch, items }: IndexChanges) => {
    if (!fromScratch) for (const { type, id, change } of items) push.onItemChange({ type, id }, change);
  };
  const searchDeps = { logger, inFlight: activity.inFlight, now, onIndexChanges };
  const preview = createPreview(settings.preview, now);
  const { inPreview } = preview;
  const api = createApiProxy(settings.api, {
    ...proxyDeps,
    inPreview,
    localAnswers: (parts) => createSearch(settings.search, { ...parts, ...searchDeps }),
  });
  const { upstream, localAnswers: search } = api;
  const { contentLangParam } = config;
  const pushDeps = { upstream, contentLangParam, refreshMs: config.search.refreshMs, logger, registry, now, ...deps.push };
  const push = createPush(config.push, config.databaseUrl, pushDeps);
  metrics.registerSearch(() => search.figures());
  metrics.registerCache("api", api.cache);
  const imageDeps = { upstreamUrl, mediaDir, resizeSlots: deps.imageResizeSlots, now };
  const images = createImages({ ...imageDeps, settings: settings.images, missBudget: tier.missBudget, logger });
  metrics.registerCache("image", images.memory);
  const enquiryDeps = { logger, registry, limit: tier.clientLimit, missBudget: tier.missBudget, publicOrigin: config.publicOrigin };
  const enquiries = createEnquiries(config.enquiries, config.databaseUrl, { ...enquiryDeps, now, ...deps.enquiryDelivery });
  const perRequestState = enquiries.formState;
  const pagesPreview = { inPreview, reader: api.previewReader };
  const pages = createPages(settings.pages, { ...common, renderer, reader: api.reader, metrics, perRequestState, preview: pagesPreview });
  const { pageCache } = pages;
  const purgeDeps = { cache: api.cache, pageCache, channel: tier.purgeChannel, logger, now };
  const purge = createPurge(settings.purge, { ...purgeDeps, onPurge: (request) => search.onPurge(request) });
  const { purger, sharedPurges } = purge;
  // Only where the purge arrived: the instances it is passed on to would tell the engines again.
  purger.onPurge((request, origin) => {
    if (origin === "local") push.onPurge(request);
  });
  const cachedEntries = () => api.cache.stats().entries + (pageCache?.stats().entries ?? 0);
  const readinessDeps = { upstream, database: deps.database, sharedTier: tier, phase: deps.phase, cachedEntries, now };
  const wechatDeps = { publicOrigin: config.publicOrigin ?? "", upstreamTimeoutMs: config.upstreamTimeoutMs };
  const { readiness, router: healthRouter } = health({ ...readinessDeps, missBudget: tier.missBudget });

  const redirects = createRedirectRules(
    { file: config.redirectsFile, ownPaths: config.push.indexNow ? [keyFilePath(config.push.indexNow.key)] : [] },
    { logger, commonHeaders, table: deps.redirectRules },
  );
  metrics.registerRedirects(redirects.figures);
  // First: a 410 rule's address may be one a route below would answer.
  app.use(redirects.goneHandler(pages.sendNotFoundPage));
  app.get(["/", "/portal", "/portal/"], redirectHome(config.lang));
  app.use(healthRouter);
  app.get(IMAGE_PATH, images.handler); // before compression: images are compressed already
  app.use(compression({ threshold: 1024 }));
  // Before /api/portal (which would proxy it) and the pages (which answer GETs only); the form page is one of theirs.
  app.use(enquiries.router(() => pages.sendOwnPage));
  const wechat = createWechat(config.wechat, { ...wechatDeps, shared: tier.connection, registry, logger, now });
  if (wechat) app.use(wechat);
  app.use("/api/portal", api.router);
  for (const [path, handler] of preview.routes) app.get(path, handler);
  // A preview's pages read their data here, under /portal where its cookie is sent; never anyone else.
  if (preview.routes.length > 0) app.use(PREVIEW_API_PREFIX, onlyInPreview(inPreview), api.router);
  app.use("/portal/media", express.static(mediaDir, MEDIA_OPTIONS));
  // Before the pages: /portal/message/news/rss.xml would otherwise be a news detail with a bad id.
  app.use(createSeo({ settings: settings.seo, reader: api.cachedReader, logger, now }));
  app.use(purge.router);
  if (renderer?.assets) app.use(renderer.assets.path, renderer.assets.handler);
  app.get(search.pageGuard.path, search.pageGuard.handler);
  app.use("/portal", pages.router);
  if (push.keyFile) app.use(push.keyFile);
  app.use(countAsMissing(missingPages), redirectHome(config.lang));
  app.use(createErrorHandler(logger));

  const follow = (req: IncomingMessage, res: ServerResponse) => {
    activity.begin(res);
    return requestLog(req, res);
  };
  const fastPathOptions = { bypassesCaches: inPreview, answersFirst: [redirects.fastPath] };
  const handle = fastPathsFirst([api.router.fastPath, pages.fastPath], app, follow, fastPathOptions);
  const close = async () => {
    redirects.close();
    search.close();
    upstream.close();
    images.close();
    await missingPages.close();
    await enquiries.close();
    await push.close();
    tier.close();
  };
  const services = { cache: api.cache, pageCache, recompressor, upstream, images, logger, purger, sharedPurges, metrics, search };
  const portal = { ...services, sharedTier: tier.connection, readiness, enquiries, missingPages, push, close };
  return Object.assign(handle, { portal });
}
