// Pages under /portal (docs/behaviour.md#pages, #page-cache): cached pages answered before Express (`fastPath`),
// the rest rendered once per key; unknown paths fall through.
import type { IncomingMessage } from "node:http";
import { type Request, type Response, Router } from "express";
import type { HomeHtml } from "../../shared/entities.ts";
import { homeScriptBody, homeScriptSource } from "../../shared/home-script.ts";
import { keys } from "../../shared/page-data.ts";
import { type Lang, type PageState, type PublicConfig, serialiseState } from "../../shared/page-state.ts";
import { BASE_PATH, isHome, langPath, type RouteMatch, splitLangPath } from "../../shared/routes.ts";
import type { MissGate } from "../admission/miss-budget.ts";
import type { ApiReader } from "../api-proxy/api-reader.ts";
import { cacheTagHeaders } from "../cache/cache-tags.ts";
import type { IdleRecompressor } from "../cache/idle-recompressor.ts";
import { InFlight } from "../cache/in-flight.ts";
import type { RequestFastPath } from "../cache/request-fast-path.ts";
import type { Loaded, PurgeWatch } from "../cache/swr-cache.ts";
import { contentSecurityPolicy, scriptHashOf } from "../http/security-headers.ts";
import type { Logger } from "../logger.ts";
import type { RenderStage } from "../operations/app-metrics.ts";
import type { PageRenderer } from "../render/page-renderer.ts";
import { assemblePage, htmlLangOf } from "../render/page-template.ts";
import { loadPageState } from "./load-page-state.ts";
import { type CachedPage, cachedPageOf as compressedPageOf, type PageCache, type PageToStore, weakEtagOf } from "./page-cache.ts";
import { createPageKeyReader, type PageRequest, pageRequestOf, singlePrefixRedirectOf } from "./page-cache-key.ts";
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
  /** What a page rendered per request (its route says `perRequest`) adds to its state: a form token, say. */
  perRequestState?: (req: Request) => Partial<PageState>;
  /** A preview's request (docs/behaviour.md#preview) and the reader it reads through instead of the caches. */
  preview?: { inPreview: (req: IncomingMessage) => boolean; reader: ApiReader };
}

export type SendOwnPage = (req: Request, res: Response, target: string, extra: Partial<PageState>, status?: number) => Promise<void>;
/** The site's not-found page at any address, with its status: the one way every not-found answer outside a page is made. */
export type SendNotFoundPage = (req: Request, res: Response, status: 404 | 410) => Promise<void>;

/** A path no route matches: the app renders its not-found state there, and its head says noindex. */
const NOT_FOUND_PATH = "/_not-found";

/** How long browsers and shared caches may keep a `?lang=` redirect: it follows from the URL alone. */
const REDIRECT_MAX_AGE_S = 86_400;

const secondsSince = (started: number) => (performance.now() - started) / 1000;

export interface PagesSettings {
  site: PublicConfig;
  dev: boolean;
  staleMs: number;
}

function homeScriptOf(match: RouteMatch, state: PageState): string | undefined {
  if (!isHome(match.route) || !state.config.homeScript) return undefined;
  const body = homeScriptBody((state.fallback[keys.indexHtml()] as HomeHtml | undefined)?.html);
  return body === undefined ? undefined : homeScriptSource(body);
}

interface RenderedPage {
  status: 200 | 404 | 502 | 504;
  body: Buffer;
  etag: string;
  csp: string | undefined;
  freshForMs: number;
  tags: string[];
  /** Purges since the render began (see swr-cache.ts), so an outdated rendering is never kept. */
  watch: PurgeWatch | undefined;
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

  /** A background render (a stale page's) waits for its data's refresh, so it shows what the refresh brought. */
  async function render(
    page: PageRequest,
    watch: PurgeWatch | undefined,
    background: boolean,
    requestId: string | undefined,
    extra?: Partial<PageState>,
    from: ApiReader = reader,
  ): Promise<RenderedPage> {
    const { match } = page;
    const read: ApiReader["get"] = (key) => (background ? from.current : from.get)(key, requestId);
    const dataStarted = performance.now();
    const loaded = await loadPageState(read, match, page.query, publicConfig, page.lang);
    const { status, freshForMs, tags } = loaded;
    const state = extra ? { ...loaded.state, ...extra } : loaded.state;
    observeStage("data", secondsSince(dataStarted));
    const renderStarted = performance.now();
    const [rendered, template] = await Promise.all([
      renderer.render({ path: page.path, search: page.search, state }),
      renderer.template(BASE_PATH + page.path),
    ]);
    const script = homeScriptOf(match, state);
    const body = Buffer.from(
      assemblePage(template, {
        lang: htmlLangOf(page.lang),
        head: rendered.head,
        appHtml: rendered.appHtml,
        stateJson: serialiseState(state),
      }),
    );
    observeStage("render", secondsSince(renderStarted));
    return {
      status,
      body,
      etag: weakEtagOf(body),
      csp: script ? contentSecurityPolicy(csp, [scriptHashOf(script)]) : undefined,
      freshForMs,
      tags,
      watch,
    };
  }

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
    res.status(rendered.status === 200 && status ? status : rendered.status).send(rendered.body);
  }

  const sendOwnPage: SendOwnPage = async (req, res, target, extra, status) => {
    const page = pageRequestOf(target);
    if (!page) throw new Error(`no page at ${target}`);
    await sendOwn(req, res, page, extra, status);
  };

  async function renderNotFound(lang: Lang, requestId: string | undefined): Promise<Buffer> {
    const { state } = await loadPageState((key) => reader.get(key, requestId), null, new URLSearchParams(), publicConfig, lang);
    const path = langPath(NOT_FOUND_PATH, lang);
    const [rendered, template] = await Promise.all([renderer.render({ path, search: "", state }), renderer.template(BASE_PATH + path)]);
    return Buffer.from(assemblePage(template, { lang, head: rendered.head, appHtml: rendered.appHtml, stateJson: serialiseState(state) }));
  }

  const sendNotFoundPage: SendNotFoundPage = async (req, res, status) => {
    const inSite = req.path.startsWith(`${BASE_PATH}/`);
    const lang: Lang = inSite ? splitLangPath(req.path.slice(BASE_PATH.length)).lang : publicConfig.defaultLang;
    const admitted = await missBudget.take(req.ip);
    if (!admitted.ok) {
      sendTooManyPage(res, admitted.retryAfterS, lang);
      return;
    }
    const body = await renderNotFound(lang, res.locals.reqId);
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("X-Robots-Tag", "noindex");
    res.setHeader("ETag", weakEtagOf(body));
    res.status(status).send(body);
  };

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
    res.status(rendered.status).send(rendered.body);
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
