/** `GET /portal/_preview` opens a preview from a signed link, `/portal/_preview/exit` ends it (docs/behaviour.md#preview). */
import type { Request, RequestHandler, Response } from "express";
import { PREVIEW_EXIT_PATH, PREVIEW_PATH } from "../../shared/preview.ts";
import type { PurgeSecret } from "../config.ts";
import { HttpError } from "../http/errors.ts";
import { clearedPreviewCookie, previewCookieOf } from "./preview-cookie.ts";
import { checkPreviewLink, sitePathOf } from "./preview-link.ts";

interface PreviewRouteSettings {
  secrets: readonly PurgeSecret[];
  /** PUBLIC_ORIGIN is https: the cookie is Secure. */
  secure: boolean;
}

const queryOf = (req: Request) => new URLSearchParams(req.originalUrl.split("?")[1] ?? "");

/** Neither answer is kept by anyone: the cookie is the editor's alone. */
function redirect(res: Response, cookie: string, to: string): void {
  res.setHeader("Cache-Control", "private, no-store");
  res.setHeader("X-Robots-Tag", "noindex");
  res.setHeader("Set-Cookie", cookie);
  res.redirect(303, to);
}

/**
 * Routes of their own (`app.get`), not a Router: a request for any other path passes them without the
 * deferred step an exhausted Router takes, which would part requests arriving together from a render they share.
 */
export function previewRoutes(settings: PreviewRouteSettings, now: () => number): [string, RequestHandler][] {
  const open: RequestHandler = (req, res) => {
    const checked = checkPreviewLink(queryOf(req), settings.secrets, now());
    if (!checked.ok) throw new HttpError(403, checked.error, { "Cache-Control": "no-store" });
    const [secret] = settings.secrets as [PurgeSecret];
    // The browser may hold the visitors' copy of the page (revalidated, but stale-while-revalidate may show it
    // first): its cache of this site is emptied, so the page the editor lands on is the preview's.
    res.setHeader("Clear-Site-Data", '"cache"');
    redirect(res, previewCookieOf(checked.expiresS, now(), secret, settings.secure), checked.path);
  };
  // Whatever the cookie holds, even none: leaving a preview is always allowed.
  const exit: RequestHandler = (req, res) => {
    const to = sitePathOf(queryOf(req).get("path")) ?? "/portal/";
    redirect(res, clearedPreviewCookie(settings.secure), to);
  };
  return [
    [PREVIEW_PATH, open],
    [PREVIEW_EXIT_PATH, exit],
  ];
}
