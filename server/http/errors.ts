// The one place errors and refusals become answers; anything not an HttpError is a 500, logged with its stack
// and answered without it (docs/behaviour.md#bad-input).
import type { ServerResponse } from "node:http";
import type { ErrorRequestHandler, Response } from "express";
import { errorEnvelope } from "../../shared/envelope.ts";
import { PREVIEW_API_PREFIX } from "../../shared/preview.ts";
import type { Logger } from "../logger.ts";

export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    // An answer, not a fault: no stack is logged, and capturing one is most of what a refusal under a flood costs.
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

function isApiRequest(url: string): boolean {
  if (url.startsWith(`${PREVIEW_API_PREFIX}/`)) return true;
  return url === "/api/portal" || url.startsWith("/api/portal/") || url.startsWith("/api/portal?");
}

/** An error or a refusal as it goes out, never stored: the same bytes whether Express or the fast path sends it. */
interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export function errorAnswer(status: number, body: Buffer, contentType: string, headers: Record<string, string> = {}): ErrorAnswer {
  return { status, headers: { ...headers, "Cache-Control": "no-store", "Content-Type": contentType }, body };
}

export function answerOf(err: unknown, json: boolean): ErrorAnswer {
  const { status, message, headers } = describeError(err);
  return json
    ? errorAnswer(status, Buffer.from(JSON.stringify(errorEnvelope(status, message))), "application/json; charset=utf-8", headers)
    : errorAnswer(status, Buffer.from(`${status} ${message}\n`), "text/plain; charset=utf-8", headers);
}

export function sendErrorAnswer(res: Response, answer: ErrorAnswer): void {
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.status(answer.status).send(answer.body);
}

/** Writes it straight to the Node response, after `before` (the headers Express's middleware would have set). */
export function writeErrorAnswer(res: ServerResponse, answer: ErrorAnswer, before: readonly (readonly [string, string])[] = []): void {
  for (const [name, value] of before) res.setHeader(name, value);
  res.writeHead(answer.status, { ...answer.headers, "Content-Length": String(answer.body.length) });
  res.end(answer.body);
}

export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const answer = answerOf(err, isApiRequest(req.originalUrl));
    if (answer.status >= 500) logger.error({ err, reqId: res.locals.reqId, url: req.originalUrl }, "request failed");
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendErrorAnswer(res, answer);
  };
}
