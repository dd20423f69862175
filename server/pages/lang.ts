import type { Request } from "express";
import { isLang, LANG_COOKIE, type Lang } from "../../shared/page-state.ts";

/**
 * The interface language of a page: `?lang=` when the URL names one (links then keep
 * it), else the visitor's saved choice (cookie), else the configured default.
 */
export function langOf(req: Request, query: URLSearchParams, fallback: Lang): { lang: Lang; inUrl: boolean } {
  const fromUrl = query.get("lang");
  if (isLang(fromUrl)) return { lang: fromUrl, inUrl: true };
  const cookie = req.headers.cookie ?? "";
  const saved = new RegExp(`(?:^|;\\s*)${LANG_COOKIE}=([^;]*)`).exec(cookie)?.[1];
  return { lang: isLang(saved) ? saved : fallback, inUrl: false };
}
