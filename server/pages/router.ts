/**
 * Pages under /portal. Until server rendering lands, each route of the shared table
 * answers a minimal HTML document so the redirects have a target; unknown paths fall
 * through to the catch-all redirect.
 */
import { Router } from "express";
import { matchPage } from "../../shared/routes.ts";

export function createPagesRouter(): Router {
  const router = Router();
  router.get("/*path", (req, res, next) => {
    const q = req.originalUrl.indexOf("?");
    const match = matchPage(req.path, new URLSearchParams(q === -1 ? "" : req.originalUrl.slice(q + 1)));
    if (!match) {
      next();
      return;
    }
    res
      .type("html")
      .send(
        `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>Portal</title></head><body><main id="page" data-page="${match.route.id}"></main></body></html>`,
      );
  });
  return router;
}
