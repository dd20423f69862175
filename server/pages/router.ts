// Pages under /portal (docs/behaviour.md#pages, #page-cache): cached pages answered before Express (`fastPath`),
// the rest rendered once per key; unknown paths fall through.
import type { IncomingMessage } from "node:http";
import { type Request, type Response, Router } from "express";
import type { PageState, PartsUsed, PublicConfig } from "../../shared/page-state.ts";
import { BASE_PATH } from "../../shared/routes.ts";
import type { MissGate } from "../admission/miss-budget.ts";
import type { ApiReader } from "../api-proxy/api-reader.ts";
import { cacheTagHeaders } from "../cache/cache-tags.ts";
import type { IdleRecompressor } from "../cache/idle-recompressor.ts";
import { InFlight } from "../cache/in-flight.ts";
import type { RequestFastPath } from "../cache/request-fast-path.ts";
import type { Loaded } from "../cache/swr-cache.ts";
import { contentSecurityPolicy } from "../http/security-headers.ts";
import { sendCompressedOnce } from "../http/send-compressed-once.ts";
import type { Logger } from "../logger.ts";
import type { RenderStage } from "../operations/app-metrics.ts";
import type { PageRenderer } from "../render/page-renderer.ts";
import { notFoundPageSender, type SendNotFoundPage } from "./not-found-page.ts";
import { type CachedPage, cachedPageOf as compressedPageOf, type PageCache, type PageToStore } from "./page-cache.ts";
import { createPageKeyReader, type PageRequest, pageRequestOf, singlePrefixRedirectOf } from "./page-cache-key.ts";
import { pageRendererOf, type RenderedPage, secondsSince } from "./render-page.ts";
import { pageCacheControl, sendCachedPage } from "./send-cached-page.ts";
import { sendTooManyPage } from "./too-many-page.ts";

interface PagesDeps {
  settings: PagesSettings;
  reader: ApiReader;
  renderer: PageRenderer;
  logger: Logger;
  pageCache?: PageCache;
  missBudget: MissGate;
  /** Absent: every miss goes to Express (admission/refusal-hold.ts). */
  refuseEarly?: (req: IncomingMessage) => Promise<number> | undefined;
  refusalHeaders?: readonly (readonly [string, string])[];
  recompressor?: IdleRecompressor;
  observeStage?: (stage: RenderStage, seconds: number) => void;
  observeParts?: (parts: PartsUsed) => void;
  /** What a page rendered per request (its route says `perRequest`) adds to its state: a form token, say. */
  perRequestState?: (req: Request) => Partial<PageState>;
  /** A preview's request (docs/behaviour.md#preview) and the reader it reads through instead of the caches. */
  preview?: { inPreview: (req: IncomingMessage) => boolean; reader: ApiReader };
}

export type SendOwnPage = (req: Request, res: Response, target: string, extra: Partial<PageState>, status?: number) => Promise<void>;
export type { SendNotFoundPage };

/** How long browsers and shared caches may keep a `?lang=` redirect: it follows from the URL alone. */
const REDIRECT_MAX_AGE_S = 86_400;

export interface PagesSettings {
  site: PublicConfig;
  dev: boolean;
  staleMs: number;
}

const PER_RENDERING = new Set(["content-security-policy", "cache-tag", "surrogate-key"]);

const PER_RESPONSE = new Set([
  "x-request-id",
  "content-length",
  "content-encoding",
  "etag",
  "cache-control",
  "date",
  "set-cookie",
  "x-page-cache",
]);

export function createPagesRouter({
  settings,
  reader,
  renderer,
  logger,
  pageCache,
  missBudget,
  refuseEarly,
  refusalHeaders,
  recompressor,
  observeStage = () => {},
  observeParts = () => {},
  perRequestState,
  preview,
}: PagesDeps): Router & {
  fastPath: RequestFastPath;
  sharedRenders(): number;
  sendOwnPage: SendOwnPage;
  sendNotFoundPage: SendNotFoundPage;
} {
  const router = Router();
  const { site: publicConfig, staleMs } = settings;
  const csp = { dev: settings.dev, https: publicConfig.publicOrigin?.startsWith("https:") ?? false };
  const defaultPolicy = contentSecurityPolicy(csp);
  const rendering = new InFlight<RenderedPage>();

  const render = pageRendererOf({ reader, renderer, site: publicConfig, csp, observeStage, observeParts });

  /** One render per key at a time, cached or not; it starts after setImmediate, so requests that arrived together share it. */
  function renderOnce(page: PageRequest, background: boolean, requestId: string | undefined): Promise<RenderedPage> {
    return rendering.share(page.key, () => {
      const watch = pageCache?.watch(page.key);
      return new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => render(page, watch, background, requestId))
        .finally(() => {
          if (watch) pageCache?.unwatch(watch);
        });
    });
  }

  async function cachedPageOf(page: PageToStore, acceptEncoding?: string): Promise<CachedPage> {
    const compressing = performance.now();
    const cached = await compressedPageOf(page, acceptEncoding);
    observeStage("compress", secondsSince(compressing));
    return cached;
  }

  const cacheable = (rendered: RenderedPage) => (rendered.status === 200 || rendered.status === 404) && rendered.freshForMs > 0;

  function pageHeaders(res: Response): [string, string][] {
    return Object.entries(res.getHeaders())
      .filter(([name]) => !PER_RESPONSE.has(name))
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : String(value)]);
  }

  function applyPageHeaders(res: Response, rendered: RenderedPage): void {
    if (rendered.csp) res.setHeader("Content-Security-Policy", rendered.csp);
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    // The address alone decides the page (its language included), so only the coding varies.
    res.setHeader("Vary", "Accept-Encoding");
    for (const [name, value] of cacheTagHeaders(rendered.tags)) res.setHeader(name, value);
  }

  /** A stale page's re-render keeps its headers but the policy and cache tags (the home script may have changed). */
  const reRender =
    (page: PageRequest, requestId?: string) =>
    async (stale: CachedPage): Promise<Loaded<CachedPage>> => {
      const fresh = await renderOnce(page, true, requestId);
      // Not kept: the stale page goes on answering.
      if (!cacheable(fresh)) return { value: stale };
      const headers = stale.headers.filter(([name]) => !PER_RENDERING.has(name.toLowerCase()));
      headers.push(["content-security-policy", fresh.csp ?? defaultPolicy], ...cacheTagHeaders(fresh.tags));
      return { value: await cachedPageOf({ ...fresh, headers }), freshForMs: fresh.freshForMs, tags: fresh.tags, since: fresh.watch };
    };

  // Requests the hot path looked up in the page cache and left to Express: their miss is counted already.
  const lookedUp = new WeakSet<IncomingMessage>();

  /**
   * A page of its own for one request: never shared, never kept (by us or by anyone on the way). A preview's
   * reads its data past every cache, shows the banner, and is never indexed.
   */
  async function sendOwn(req: Request, res: Response, page: PageRequest, extra: Partial<PageState>, status?: number): Promise<void> {
    const admitted = await missBudget.take(req.ip);
    if (!admitted.ok) {
      sendTooManyPage(res, admitted.retryAfterS, page.lang);
      return;
    }
    const inPreview = preview?.inPreview(req) === true;
    const own: Partial<PageState> = inPreview ? { ...extra, preview: true } : extra;
    const rendered = await render(page, undefined, false, res.locals.reqId, own, inPreview ? preview?.reader : reader);
    applyPageHeaders(res, rendered);
    res.setHeader("Cache-Control", inPreview ? "private, no-store" : "no-store");
    if (inPreview) res.setHeader("X-Robots-Tag", "noindex");
    res.setHeader("ETag", rendered.etag);
    await sendCompressedOnce(req, res, rendered.status === 200 && status ? status : rendered.status, rendered.body);
  }

  const sendOwnPage: SendOwnPage = async (req, res, target, extra, status) => {
    const page = pageRequestOf(target);
    if (!page) throw new Error(`no page at ${target}`);
    await sendOwn(req, res, page, extra, status);
  };

  const sendNotFoundPage = notFoundPageSender({ reader, renderer, site: publicConfig, missBudget });

  router.get("/*path", async (req: Request, res: Response, next) => {
    const page = pageRequestOf(req.url);
    // `?lang=` from before languages had addresses of their own: the page's address in that language. A
    // prefix repeated (`/en/en/`): the address with it once, never a page or a cache entry of its own.
    const redirect = page ? page.redirect : singlePrefixRedirectOf(req.url);
    if (redirect) {
      res.setHeader("Cache-Control", `public, max-age=${REDIRECT_MAX_AGE_S}`);
      res.redirect(301, redirect);
      return;
    }
    if (!page) {
      next();
      return;
    }
    if (page.match.route.perRequest || preview?.inPreview(req)) {
      await sendOwn(req, res, page, page.match.route.perRequest ? (perRequestState?.(req) ?? {}) : {});
      return;
    }
    const cached = lookedUp.has(req) ? undefined : pageCache?.lookup(page.key, reRender(page, res.locals.reqId));
    if (cached) {
      sendCachedPage(req, res, cached, staleMs);
      return;
    }

    // A render is charged to the client before it starts; a share of one under way is free.
    const admitted = rendering.has(page.key) ? { ok: true as const } : await missBudget.take(req.ip);
    if (!admitted.ok) {
      sendTooManyPage(res, admitted.retryAfterS, page.lang);
      return;
    }
    const rendered = await renderOnce(page, false, res.locals.reqId);
    applyPageHeaders(res, rendered);
    const store = pageCache && cacheable(rendered);
    res.setHeader(
      "Cache-Control",
      store ? pageCacheControl(rendered.freshForMs, staleMs) : rendered.status === 200 ? "no-cache" : "no-store",
    );
    if (pageCache) res.setHeader("X-Page-Cache", "MISS");
    if (store) {
      // Sent from its cached forms, so the compression middleware does not compress it a second time.
      const prepared = cachedPageOf({ ...rendered, headers: pageHeaders(res) }, req.headers["accept-encoding"]);
      pageCache
        .fill(page.key, async () => ({
          value: await prepared,
          freshForMs: rendered.freshForMs,
          tags: rendered.tags,
          since: rendered.watch,
        }))
        .catch((err) => logger.warn({ err }, "page cache store failed"));
      const value = await prepared.catch(() => undefined);
      if (value) {
        sendCachedPage(req, res, { value, status: "MISS", freshForMs: rendered.freshForMs }, staleMs);
        return;
      }
    }
    res.setHeader("ETag", rendered.etag);
    await sendCompressedOnce(req, res, rendered.status, rendered.body);
  });
  const pageKeyOf = createPageKeyReader();
  const fastPath: RequestFastPath = (req, res) => {
    const url = req.url ?? "";
    if (!pageCache || (req.method !== "GET" && req.method !== "HEAD") || !url.startsWith(`${BASE_PATH}/`)) return undefined;
    const target = url.slice(BASE_PATH.length);
    const key = pageKeyOf(target);
    if (key === undefined) return undefined;
    const cached = pageCache.lookup(key, (stale) => {
      // Only a stale page needs its route: to re-render it.
      const page = pageRequestOf(target);
      if (!page) throw new Error(`no page at ${target}`);
      return reRender(page)(stale);
    });
    if (!cached) {
      // A share of a render under way is free; a client known to be refused is answered here, without Express.
      const refusal = rendering.has(key) ? undefined : refuseEarly?.(req);
      if (refusal) {
        const lang = pageRequestOf(target)?.lang ?? publicConfig.defaultLang;
        void refusal.then((retryAfterS) => sendTooManyPage(res, retryAfterS, lang, refusalHeaders));
        return "refused";
      }
      lookedUp.add(req);
      return undefined;
    }
    sendCachedPage(req, res, cached, staleMs);
    recompressor?.noteHit(cached.value.answer);
    return cached.status;
  };
  return Object.assign(router, { fastPath, sharedRenders: () => rendering.joined, sendOwnPage, sendNotFoundPage });
}
