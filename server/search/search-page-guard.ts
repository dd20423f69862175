/** The search page's one refusal: a `q` given twice or longer than 100 characters is a 400, before any render. */
import type { RequestHandler } from "express";
import { BASE_PATH, langPrefix, PAGES } from "../../shared/routes.ts";
import { parseSearchPage } from "../../shared/search.ts";
import { siteLangs } from "../../shared/site-langs.ts";
import { HttpError } from "../http/errors.ts";

/** A function: the paths are the site's languages', known once the configuration is read. */
export const searchPageGuard = (): { path: string[]; handler: RequestHandler } => ({
  path: siteLangs().map((lang) => BASE_PATH + langPrefix(lang) + PAGES.search.path),
  handler: (req, _res, next) => {
    const q = req.originalUrl.indexOf("?");
    const parsed = parseSearchPage(new URLSearchParams(q === -1 ? "" : req.originalUrl.slice(q + 1)));
    next(parsed.ok ? undefined : new HttpError(400, parsed.error));
  },
});
