// Preview as the app mounts it: the predicate every cache asks, and the link and exit routes (docs/behaviour.md#preview).
// Without PREVIEW_SECRET no request is a preview and neither route exists.
import type { RequestHandler } from "express";
import type { Config } from "../config.ts";
import { HttpError } from "../http/errors.ts";
import { type InPreview, inPreviewOf } from "./preview-cookie.ts";
import { previewRoutes } from "./preview-route.ts";

export { previewLinkCommand } from "./preview-command.ts";
export { previewLinkOf, sitePathOf } from "./preview-link.ts";
export type { InPreview };

export interface Preview {
  inPreview: InPreview;
  /** GET routes to mount (none without PREVIEW_SECRET). */
  routes: [string, RequestHandler][];
}

export function createPreview(
  settings: { preview: Config["preview"]; publicOrigin: string | undefined },
  now: () => number = Date.now,
): Preview {
  const { secrets } = settings.preview;
  if (secrets.length === 0) return { inPreview: () => false, routes: [] };
  const secure = settings.publicOrigin?.startsWith("https:") ?? false;
  return { inPreview: inPreviewOf(secrets, now), routes: previewRoutes({ secrets, secure }, now) };
}

/** Before the preview's own data calls: a visitor (or an ended preview) is refused, never answered from a cache. */
export function onlyInPreview(inPreview: InPreview): RequestHandler {
  return (req, _res, next) => {
    if (!inPreview(req)) throw new HttpError(403, "no preview is open: open a preview link first", { "Cache-Control": "no-store" });
    next();
  };
}
