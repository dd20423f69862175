import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import type { Logger } from "../logger.ts";

const SAFE_REQUEST_ID = /^[\w.-]{1,64}$/;

/**
 * Gives each request an id (a caller's X-Request-Id when it is safe to echo) and logs
 * one line when it ends. Successful cache hits and static files log at debug only, so
 * the hot path costs nothing at info level.
 */
export function createRequestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const inbound = req.get("x-request-id");
    const reqId = inbound && SAFE_REQUEST_ID.test(inbound) ? inbound : randomUUID();
    res.locals.reqId = reqId;
    res.setHeader("X-Request-Id", reqId);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const quiet =
        res.statusCode < 400 && (res.getHeader("x-cache") === "HIT" || res.statusCode === 304 || req.path.startsWith("/portal/media/"));
      const level = quiet ? "debug" : res.statusCode >= 500 ? "error" : "info";
      if (!logger.isLevelEnabled(level)) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger[level](
        {
          reqId,
          method: req.method,
          url: req.originalUrl.slice(0, 512),
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          cache: res.getHeader("x-cache"),
        },
        "request",
      );
    });
    next();
  };
}
