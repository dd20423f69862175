// The site's not-found page at any address, in the address's language: never cached, never indexed.
import type { Request, Response } from "express";
import { type Lang, type PublicConfig, serialiseState } from "../../shared/page-state.ts";
import { BASE_PATH, langPath, splitLangPath } from "../../shared/routes.ts";
import type { MissGate } from "../admission/miss-budget.ts";
import type { ApiReader } from "../api-proxy/api-reader.ts";
import type { PageRenderer } from "../render/page-renderer.ts";
import { assemblePage } from "../render/page-template.ts";
import { loadPageState } from "./load-page-state.ts";
import { weakEtagOf } from "./page-cache.ts";
import { sendTooManyPage } from "./too-many-page.ts";

/** The site's not-found page at any address, with its status: the one way every not-found answer outside a page is made. */
export type SendNotFoundPage = (req: Request, res: Response, status: 404 | 410) => Promise<void>;

/** A path no route matches: the app renders its not-found state there, and its head says noindex. */
const NOT_FOUND_PATH = "/_not-found";

interface NotFoundDeps {
  reader: ApiReader;
  renderer: PageRenderer;
  site: PublicConfig;
  missBudget: MissGate;
}

export function notFoundPageSender({ reader, renderer, site, missBudget }: NotFoundDeps): SendNotFoundPage {
  async function renderNotFound(lang: Lang, requestId: string | undefined): Promise<Buffer> {
    const { state } = await loadPageState((key) => reader.get(key, requestId), null, new URLSearchParams(), site, lang);
    const path = langPath(NOT_FOUND_PATH, lang);
    const [rendered, template] = await Promise.all([renderer.render({ path, search: "", state }), renderer.template(BASE_PATH + path)]);
    return assemblePage(template, {
      lang,
      head: rendered.head,
      appHtml: rendered.appHtml,
      stateJson: serialiseState(state),
    });
  }

  return async (req, res, status) => {
    const inSite = req.path.startsWith(`${BASE_PATH}/`);
    const lang: Lang = inSite ? splitLangPath(req.path.slice(BASE_PATH.length)).lang : site.defaultLang;
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
}
