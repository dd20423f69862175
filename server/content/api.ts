/**
 * The embedded content API: every call under /api/portal answered from the content database,
 * routed and checked by the shared call table (docs/behaviour.md#content-api).
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler, type Response } from "express";
import { API_PREFIX, type MatchedCall, matchCalls, normaliseCallQuery } from "../../shared/api-calls.ts";
import { type Envelope, errorEnvelope } from "../../shared/envelope.ts";
import { parseId } from "../../shared/params.ts";
import { parseReaderBody } from "../../shared/reader-body.ts";
import { EMBEDDED_LANG_PARAM } from "../config.ts";
import type { Logger } from "../logger.ts";
import { CALL_ENTITIES, CALL_HANDLERS } from "./api-handlers.ts";
import type { ContentDb } from "./db.ts";
import { type Audience, incrementReader } from "./store.ts";
import { TRANSLATION_LANGS, type TranslationLang, translatePayload } from "./translations.ts";

interface ContentApiOptions {
  /** Told about unexpected failures (answered 500). */
  onError?: (error: unknown) => void;
  /** One line per request, with the server's X-Request-Id. */
  logger?: Logger;
  /** The query parameter that, at `1`, shows drafts and items not yet due (PREVIEW_PARAM); default `preview`. */
  previewParam?: string;
  now?: () => number;
}

export interface StartedContentApi {
  url: string;
  /** Does not close the database. */
  close(): Promise<void>;
}

const READER_PATH = `${API_PREFIX}/reader/reader`;
const MAX_READER_BODY_BYTES = 1024;

function createContentApi(content: ContentDb, options: ContentApiOptions = {}): Express {
  const app = express();
  app.disable("x-powered-by");
  // The server in front does the caching and validators.
  app.set("etag", false);
  if (options.logger) app.use(logContentRequest(options.logger));

  // Any content type is read as JSON: the body's shape is what is checked.
  app.put(READER_PATH, express.json({ limit: MAX_READER_BODY_BYTES, strict: true, type: () => true }));

  app.use(API_PREFIX, async (req, res) => {
    const matches = matchCalls(req.path);
    if (matches.length === 0) return send(res, 404, errorEnvelope(404, "no such call"));
    const method = req.method === "HEAD" ? "GET" : req.method;
    const match = matches.find((m) => m.call.method === method);
    if (!match) {
      res.set("Allow", allowedMethods(matches));
      return send(res, 405, errorEnvelope(405, "method not allowed"));
    }
    const nowMs = (options.now ?? Date.now)();
    if (match.call.method === "PUT") return answerReaderPut(content, req, res, nowMs);
    const audience = { preview: searchParamsOf(req).get(options.previewParam ?? "preview") === "1", nowMs };
    return answerGet(content, match, req, res, audience);
  });

  app.use((_req, res) => send(res, 404, errorEnvelope(404, "no such call")));
  app.use(answerError(options));
  return app;
}

export async function startContentApi(
  content: ContentDb,
  { host = "127.0.0.1", port = 0, ...options }: { host?: string; port?: number } & ContentApiOptions = {},
): Promise<StartedContentApi> {
  const app = createContentApi(content, options);
  const server = await new Promise<Server>((resolve, reject) => {
    // exclusive: in a cluster worker, this API is the worker's own, not a port shared through the primary.
    const listening = app.listen({ port, host, exclusive: true }, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** undefined: the content's own language (Chinese). */
function translationLangOf(query: URLSearchParams): { ok: true; lang?: TranslationLang } | { ok: false; error: string } {
  const all = query.getAll(EMBEDDED_LANG_PARAM);
  if (all.length > 1) return { ok: false, error: `${EMBEDDED_LANG_PARAM} is given more than once` };
  const raw = all[0];
  if (raw === undefined || raw === "" || raw === "zh-CN") return { ok: true };
  const lang = TRANSLATION_LANGS.find((l) => l === raw);
  return lang ? { ok: true, lang } : { ok: false, error: `${EMBEDDED_LANG_PARAM} must be zh-CN, ${TRANSLATION_LANGS.join(", ")}` };
}

async function answerGet(content: ContentDb, { call, rawId }: MatchedCall, req: Request, res: Response, audience: Audience) {
  const params = searchParamsOf(req);
  const query = normaliseCallQuery(call, params);
  if (!query.ok) return send(res, 400, errorEnvelope(400, query.error));
  const lang = translationLangOf(params);
  if (!lang.ok) return send(res, 400, errorEnvelope(400, lang.error));
  let id = 0;
  if (call.detail) {
    const parsed = parseId("id", rawId);
    if (!parsed.ok || parsed.value === undefined) return send(res, 400, errorEnvelope(400, parsed.ok ? "id is required" : parsed.error));
    id = parsed.value;
  }
  const handler = CALL_HANDLERS[call.id];
  if (!handler) return send(res, 404, errorEnvelope(404, "no such call"));
  const found = await handler(content, { id, query: new URLSearchParams(query.search), audience });
  if (found === undefined && call.detail) return send(res, 404, errorEnvelope(404, "no such item"));
  const entity = CALL_ENTITIES[call.id];
  const data = lang.lang && entity && found !== undefined ? await translatePayload(content, entity, lang.lang, found) : found;
  return send(res, 200, { code: 0, msg: "ok", data: data ?? null });
}

async function answerReaderPut(content: ContentDb, req: Request, res: Response, nowMs: number) {
  const parsed = parseReaderBody(req.body);
  if (!parsed.ok) return send(res, 400, errorEnvelope(400, parsed.error));
  const counted = await incrementReader(content, parsed.reader.type, parsed.reader.pid, nowMs);
  if (!counted) return send(res, 404, errorEnvelope(404, "no such item"));
  return send(res, 200, { code: 0, msg: "ok", data: null });
}

/** The query as sent (Express's own parser would turn repeated keys into arrays). */
function searchParamsOf(req: Request): URLSearchParams {
  const at = req.originalUrl.indexOf("?");
  return new URLSearchParams(at === -1 ? "" : req.originalUrl.slice(at + 1));
}

function allowedMethods(matches: MatchedCall[]): string {
  const methods = new Set(matches.flatMap((m) => (m.call.method === "GET" ? ["GET", "HEAD"] : [m.call.method])));
  return [...methods].join(", ");
}

function send(res: Response, status: number, body: Envelope<unknown>): void {
  res.status(status).json(body);
}

function answerError({ onError }: ContentApiOptions): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const status = clientErrorStatus(error);
    if (status === undefined) onError?.(error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (status === undefined) return send(res, 500, errorEnvelope(500, "internal error"));
    return send(res, status, errorEnvelope(status, clientErrorMessage(status)));
  };
}

function clientErrorStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { status, expose } = error as { status?: unknown; expose?: unknown };
  return typeof status === "number" && status >= 400 && status < 500 && expose === true ? status : undefined;
}

function clientErrorMessage(status: number): string {
  if (status === 413) return `body larger than ${MAX_READER_BODY_BYTES} bytes`;
  if (status === 415) return "unsupported body encoding";
  if (status === 400) return "body must be JSON";
  return "bad request";
}

function logContentRequest(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once("finish", () => {
      // The server's own access line says what a visitor asked; these are its sub-requests, for debugging.
      logger.debug(
        {
          reqId: req.get("x-request-id"),
          method: req.method,
          url: req.originalUrl.slice(0, 512),
          status: res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        "content api request",
      );
    });
    next();
  };
}
