// One page rendered: its data read, React rendered into the template, its body's ETag and its policy (a home
// script's hash added to it), and how long it stays fresh (docs/behaviour.md#pages).
import type { HomeHtml } from "../../shared/entities.ts";
import { homeScriptBody, homeScriptSource } from "../../shared/home-script.ts";
import { keys } from "../../shared/page-data.ts";
import { type PageState, type PartsUsed, type PublicConfig, serialiseState } from "../../shared/page-state.ts";
import { BASE_PATH, isHome, type RouteMatch } from "../../shared/routes.ts";
import type { ApiReader } from "../api-proxy/api-reader.ts";
import type { PurgeWatch } from "../cache/swr-cache.ts";
import { contentSecurityPolicy, scriptHashOf } from "../http/security-headers.ts";
import type { RenderStage } from "../operations/app-metrics.ts";
import type { PageRenderer } from "../render/page-renderer.ts";
import { assemblePage } from "../render/page-template.ts";
import { loadPageState } from "./load-page-state.ts";
import { weakEtagOf } from "./page-cache.ts";
import type { PageRequest } from "./page-cache-key.ts";

export interface RenderedPage {
  status: 200 | 404 | 502 | 504;
  body: Buffer;
  etag: string;
  csp: string | undefined;
  freshForMs: number;
  tags: string[];
  /** Purges since the render began (see swr-cache.ts), so an outdated rendering is never kept. */
  watch: PurgeWatch | undefined;
}

export type RenderPage = (
  page: PageRequest,
  watch: PurgeWatch | undefined,
  background: boolean,
  requestId: string | undefined,
  extra?: Partial<PageState>,
  from?: ApiReader,
) => Promise<RenderedPage>;

export const secondsSince = (started: number) => (performance.now() - started) / 1000;

function homeScriptOf(match: RouteMatch, state: PageState): string | undefined {
  if (!isHome(match.route) || !state.config.homeScript) return undefined;
  const body = homeScriptBody((state.fallback[keys.indexHtml()] as HomeHtml | undefined)?.html);
  return body === undefined ? undefined : homeScriptSource(body);
}

interface RenderPageDeps {
  reader: ApiReader;
  renderer: PageRenderer;
  site: PublicConfig;
  csp: { dev: boolean; https: boolean };
  observeStage: (stage: RenderStage, seconds: number) => void;
  observeParts: (parts: PartsUsed) => void;
}

/** A background render (a stale page's) waits for its data's refresh, so it shows what the refresh brought. */
export function pageRendererOf({ reader, renderer, site, csp, observeStage, observeParts }: RenderPageDeps): RenderPage {
  return async (page, watch, background, requestId, extra, from = reader) => {
    const { match } = page;
    const read: ApiReader["get"] = (key) => (background ? from.current : from.get)(key, requestId);
    const dataStarted = performance.now();
    const loaded = await loadPageState(read, match, page.query, site, page.lang);
    const { status, freshForMs, tags } = loaded;
    const state = extra ? { ...loaded.state, ...extra } : loaded.state;
    observeStage("data", secondsSince(dataStarted));
    const renderStarted = performance.now();
    const [rendered, template] = await Promise.all([
      renderer.render({ path: page.path, search: page.search, state }),
      renderer.template(BASE_PATH + page.path),
    ]);
    const script = homeScriptOf(match, state);
    const body = assemblePage(template, {
      lang: page.lang,
      head: rendered.head,
      appHtml: rendered.appHtml,
      stateJson: serialiseState(state),
    });
    observeStage("render", secondsSince(renderStarted));
    observeParts(rendered.parts);
    return {
      status,
      body,
      etag: weakEtagOf(body),
      csp: script ? contentSecurityPolicy(csp, [scriptHashOf(script)]) : undefined,
      freshForMs,
      tags,
      watch,
    };
  };
}
