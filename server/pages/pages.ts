// The pages as the app mounts them: the page cache (never in development), the router and its fast path.
// Without a renderer only the API and health answer.

import type { IncomingMessage } from "node:http";
import { type Request, Router } from "express";
import type { PageState, PublicConfig } from "../../shared/page-state.ts";
import { isDefaultSiteLangs } from "../../shared/site-langs.ts";
import type { HoldingGate } from "../admission/refusal-hold.ts";
import type { ApiReader } from "../api-proxy/api-reader.ts";
import type { IdleRecompressor } from "../cache/idle-recompressor.ts";
import type { RequestFastPath } from "../cache/request-fast-path.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { AppMetrics } from "../operations/app-metrics.ts";
import type { PageRenderer } from "../render/page-renderer.ts";
import { createPageCache, type PageCache } from "./page-cache.ts";
import { createPagesRouter, type PagesSettings, type SendNotFoundPage, type SendOwnPage } from "./router.ts";

export type { PageCache, SendNotFoundPage };

interface PagesFactorySettings extends Omit<PagesSettings, "site"> {
  site: Pick<Config, "lang" | "langs" | "contentLangParam" | "classify" | "homeScript" | "publicOrigin"> & { wechat: boolean };
  pageCache: boolean;
  maxBytes: number;
}

function publicConfigOf(config: PagesFactorySettings["site"]): PublicConfig {
  return {
    defaultLang: config.lang,
    // A page of the two default languages is as it was before a site could have more.
    ...(isDefaultSiteLangs(config.langs) ? {} : { langs: config.langs }),
    contentLang: config.contentLangParam !== undefined,
    classify: config.classify ?? [],
    homeScript: config.homeScript,
    publicOrigin: config.publicOrigin,
    ...(config.wechat ? { wechat: true as const } : {}),
  };
}

interface PagesFactoryDeps {
  renderer: PageRenderer | undefined;
  reader: ApiReader;
  tier: { missBudget: HoldingGate };
  clientAddressOf: (req: IncomingMessage) => string | undefined;
  commonHeaders: readonly (readonly [string, string])[];
  recompressor: IdleRecompressor;
  metrics: Pick<AppMetrics, "registerCache" | "registerShared" | "observeRenderStage" | "observeParts">;
  perRequestState: (req: Request) => Partial<PageState>;
  preview: { inPreview: (req: IncomingMessage) => boolean; reader: ApiReader };
  logger: Logger;
  now?: () => number;
}

export interface Pages {
  pageCache: PageCache | undefined;
  router: Router;
  fastPath: RequestFastPath;
  sendOwnPage: SendOwnPage | undefined;
  /** Undefined without a renderer. */
  sendNotFoundPage: SendNotFoundPage | undefined;
}

export function createPages(settings: PagesFactorySettings, deps: PagesFactoryDeps): Pages {
  const { renderer, logger, metrics } = deps;
  const { missBudget } = deps.tier;
  const pageCache =
    renderer && settings.pageCache && !settings.dev
      ? createPageCache({
          maxBytes: settings.maxBytes,
          staleMs: settings.staleMs,
          now: deps.now,
          onRefreshError: (key, err) => logger.warn({ err, key }, "page re-render failed"),
        })
      : undefined;
  if (pageCache) metrics.registerCache("page", pageCache);
  if (!renderer) return { pageCache, router: Router(), fastPath: () => undefined, sendOwnPage: undefined, sendNotFoundPage: undefined };
  const router = createPagesRouter({
    settings: { site: publicConfigOf(settings.site), dev: settings.dev, staleMs: settings.staleMs },
    reader: deps.reader,
    renderer,
    logger,
    pageCache,
    missBudget,
    refuseEarly: (req) => missBudget.refuseEarly(deps.clientAddressOf(req)),
    refusalHeaders: deps.commonHeaders,
    recompressor: deps.recompressor,
    observeStage: metrics.observeRenderStage,
    observeParts: metrics.observeParts,
    perRequestState: deps.perRequestState,
    preview: deps.preview,
  });
  metrics.registerShared("page", router.sharedRenders);
  const { fastPath, sendOwnPage, sendNotFoundPage } = router;
  return { pageCache, router, fastPath, sendOwnPage, sendNotFoundPage };
}
