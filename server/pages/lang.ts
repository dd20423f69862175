import type { IncomingHttpHeaders } from "node:http";
import { isLang, LANG_COOKIE, type Lang } from "../../shared/page-state.ts";

const SAVED_LANG = new RegExp(`(?:^|;\\s*)${LANG_COOKIE}=([^;]*)`);

/**
 * The interface language of a page: `?lang=` when the URL names one (links then keep
 * it), else the visitor's saved choice (cookie), else the configured default.
 */
export function langOf(headers: IncomingHttpHeaders, query: URLSearchParams, fallback: Lang): { lang: Lang; inUrl: boolean } {
  const fromUrl = query.get("lang");
  if (isLang(fromUrl)) return { lang: fromUrl, inUrl: true };
  return { lang: savedLangOf(headers) ?? fallback, inUrl: false };
}

/** The language the visitor saved (cookie), if it is one we have. */
export function savedLangOf(headers: IncomingHttpHeaders): Lang | undefined {
  const saved = headers.cookie ? SAVED_LANG.exec(headers.cookie)?.[1] : undefined;
  return isLang(saved) ? saved : undefined;
}
