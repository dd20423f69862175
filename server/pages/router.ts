/**
 * Pages under /portal: the shared route table picks the page, its data is loaded
 * through the API cache, and the renderer turns it into the HTML document. Paths the
 * table does not know fall through to the catch-all redirect.
 */
import { Router } from "express";
import type { HomeHtml } from "../../shared/entities.ts";
import { homeScriptBody, homeScriptSource } from "../../shared/home-script.ts";
import { keys } from "../../shared/page-data.ts";
import { type PageState, type PublicConfig, serialiseState } from "../../shared/page-state.ts";
import { matchPage, type RouteMatch } from "../../shared/routes.ts";
import type { Config } from "../config.ts";
import { contentSecurityPolicy, scriptHashOf } from "../http/security-headers.ts";
import type { ApiReader } from "../portal-api/api-reader.ts";
import type { PageRenderer } from "../render/page-renderer.ts";
import { assemblePage } from "../render/page-template.ts";
import { langOf } from "./lang.ts";
import { loadPageState } from "./load-page-state.ts";

export interface PagesDeps {
  config: Config;
  reader: ApiReader;
  renderer: PageRenderer;
}

export function publicConfigOf(config: Config): PublicConfig {
  return {
    defaultLang: config.lang,
    classify: config.classify ?? [],
    homeScript: config.homeScript,
    publicOrigin: config.publicOrigin,
  };
}

/** The exact text of the home page's `useEval|` script, when the operator allows one and the page has one. */
function homeScriptOf(match: RouteMatch, state: PageState): string | undefined {
  if (match.route.id !== "home" || !state.config.homeScript) return undefined;
  const body = homeScriptBody((state.fallback[keys.indexHtml()] as HomeHtml | undefined)?.html);
  return body === undefined ? undefined : homeScriptSource(body);
}

export function createPagesRouter({ config, reader, renderer }: PagesDeps): Router {
  const router = Router();
  const publicConfig = publicConfigOf(config);
  const csp = { dev: config.dev, https: config.publicOrigin?.startsWith("https:") ?? false };

  router.get("/*path", async (req, res, next) => {
    const q = req.originalUrl.indexOf("?");
    const search = q === -1 ? "" : req.originalUrl.slice(q + 1);
    const query = new URLSearchParams(search);
    const match = matchPage(req.path, query);
    if (!match) {
      next();
      return;
    }
    const { lang, inUrl } = langOf(req, query, config.lang);
    const { state, status } = await loadPageState(reader, match, query, publicConfig, lang, inUrl);
    const [rendered, template] = await Promise.all([
      renderer.render({ path: req.path, search, match, state }),
      renderer.template(req.originalUrl),
    ]);
    const script = homeScriptOf(match, state);
    if (script) res.setHeader("Content-Security-Policy", contentSecurityPolicy(csp, [scriptHashOf(script)]));
    const html = assemblePage(template, { lang, head: rendered.head, appHtml: rendered.appHtml, stateJson: serialiseState(state) });
    res
      .status(status)
      .set({
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": status === 200 ? "no-cache" : "no-store",
        // The language can come from a cookie, so a shared cache must keep them apart.
        Vary: inUrl ? "Accept-Encoding" : "Accept-Encoding, Cookie",
      })
      .send(html);
  });
  return router;
}
