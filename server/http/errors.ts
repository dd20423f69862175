/**
 * The one place errors become answers. Handlers throw HttpError (or let a body parser
 * throw its own 4xx); anything else is a 500 logged with its stack and answered
 * without it.
 */
import type { ErrorRequestHandler } from "express";
import { errorEnvelope } from "../../shared/envelope.ts";
import type { Logger } from "../logger.ts";

export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    // An answer, not a fault: its stack is never logged, and capturing one is most of what a
    // refusal (a miss-budget 429 under a flood) costs.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.status = status;
    this.headers = headers;
  }
}

/** Messages for the 4xx errors body parsers and Express raise, so none leaks internals. */
const PARSER_MESSAGES: Record<string, string> = {
  "entity.too.large": "request body is too large",
  "entity.parse.failed": "request body is not valid JSON",
  "encoding.unsupported": "request body encoding is not supported",
  "charset.unsupported": "request body charset is not supported",
  "request.aborted": "request was aborted",
  "entity.verify.failed": "request body was rejected",
};

interface ExpressishError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

/** The status and a safe message of anything thrown. */
export function describeError(err: unknown): { status: number; message: string; headers: Record<string, string> } {
  if (err instanceof HttpError) return { status: err.status, message: err.message, headers: err.headers };
  const e = (err ?? {}) as ExpressishError;
  const status = e.status ?? e.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    const message = (e.type && PARSER_MESSAGES[e.type]) || (e.expose && e.message) || "bad request";
    return { status, message, headers: {} };
  }
  return { status: 500, message: "internal error", headers: {} };
}

export function isApiRequest(url: string): boolean {
  return url === "/api/portal" || url.startsWith("/api/portal/") || url.startsWith("/api/portal?");
}

export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const { status, message, headers } = describeError(err);
    if (status >= 500) logger.error({ err, reqId: res.locals.reqId, url: req.originalUrl }, "request failed");
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(status).set(headers).set("Cache-Control", "no-store");
    if (isApiRequest(req.originalUrl)) {
      res.json(errorEnvelope(status, message));
    } else {
      res.type("text/plain; charset=utf-8").send(`${status} ${message}\n`);
    }
  };
}
