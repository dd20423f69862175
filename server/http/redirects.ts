// Redirects home (docs/behaviour.md#redirects): a fixed local target, never one the request names.
import type { RequestHandler } from "express";
import type { Lang } from "../../shared/page-state.ts";
import { BASE_PATH, HOME_PATH, langPath, splitLangPath } from "../../shared/routes.ts";
import { baseLang } from "../../shared/site-langs.ts";
import { answerOf, HttpError, sendErrorAnswer } from "./errors.ts";

function homeLocation(originalUrl: string, defaultLang: Lang): string {
  const q = originalUrl.indexOf("?");
  const path = q === -1 ? originalUrl : originalUrl.slice(0, q);
  const inBase = path.startsWith(`${BASE_PATH}/`) ? splitLangPath(path.slice(BASE_PATH.length)).lang : undefined;
  const lang = inBase && inBase !== baseLang() ? inBase : defaultLang;
  const home = BASE_PATH + langPath(HOME_PATH, lang);
  return q === -1 ? home : home + originalUrl.slice(q);
}

export function redirectHome(defaultLang: Lang): RequestHandler {
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      sendErrorAnswer(res, answerOf(new HttpError(405, "method not allowed", { Allow: "GET, HEAD" }), false));
      return;
    }
    res.set("Cache-Control", "no-store").redirect(302, homeLocation(req.originalUrl, defaultLang));
  };
}
