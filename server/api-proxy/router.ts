// /api/portal (docs/behaviour.md#api): fresh hits answered before Express (`fastPath`), the rest inside it.
import type { IncomingMessage, ServerResponse } from "node:http";
import express, { type Request, type Response, Router } from "express";
import { API_PREFIX } from "../../shared/api-calls.ts";
import { parseReaderBody } from "../../shared/reader-body.ts";
import { clientKeyOf } from "../admission/client-key.ts";
import { type MissGate, tooManyMisses } from "../admission/miss-budget.ts";
import { DUPLICATE, type ReaderLimits } from "../admission/reader-guard.ts";
import type { IdleRecompressor } from "../cache/idle-recompressor.ts";
import { memoByUrl } from "../cache/memo-by-url.ts";
import { sendPrepared } from "../cache/prepared-answer.ts";
import type { RequestFastPath } from "../cache/request-fast-path.ts";
import type { Config } from "../config.ts";
import { answerOf, HttpError, writeErrorAnswer } from "../http/errors.ts";
import { type ApiReader, httpErrorOf } from "./api-reader.ts";
import { previewPathOf } from "./preview-reader.ts";
import { classifyPathsOf, type ResolvedRequest, resolveApiRequest } from "./resolve-request.ts";
import { sendApiAnswer } from "./send-api-answer.ts";
import type { UpstreamClient, UpstreamResponse } from "./upstream-client.ts";

interface PortalApiDeps {
  settings: { classify: Config["classify"]; contentLang: boolean; staleMs: number };
  reader: ApiReader;
  upstream: UpstreamClient;
  readerGuard: ReaderLimits;
  missBudget: MissGate;
  /** Absent: every miss goes to Express (admission/refusal-hold.ts). */
  refuseEarly?: (req: IncomingMessage) => Promise<number> | undefined;
  answerHeaders?: readonly (readonly [string, string])[];
  /** Longer request targets are Express's to refuse. */
  maxUrlLength: number;
  recompressor?: IdleRecompressor;
  /** A preview's request (docs/behaviour.md#preview) and the reader it reads through instead of the caches. */
  preview?: { inPreview: (req: IncomingMessage) => boolean; reader: ApiReader; param: string };
}

/** Kept by no one on the way, and never indexed. */
const PREVIEW_HEADERS = ["Cache-Control", "private, no-store", "X-Robots-Tag", "noindex"];

const READER_BODY_LIMIT = "1kb";

export function createPortalApiRouter(deps: PortalApiDeps): Router & { fastPath: RequestFastPath } {
  const { settings, reader, upstream, readerGuard, missBudget, maxUrlLength } = deps;
  const chargeMiss = async (req: Request) => {
    const admitted = await missBudget.take(req.ip);
    if (!admitted.ok) throw tooManyMisses(admitted.retryAfterS);
  };
  const classifyPaths = classifyPathsOf(settings.classify);
  const { contentLang } = settings;
  const resolveLine = memoByUrl((line): ResolvedRequest => {
    const space = line.indexOf(" ");
    const q = line.indexOf("?");
    const path = line.slice(space + 1, q === -1 ? undefined : q);
    return resolveApiRequest(
      line.slice(0, space),
      path,
      new URLSearchParams(q === -1 ? "" : line.slice(q + 1)),
      classifyPaths,
      contentLang,
    );
  });
  // What the hot path resolved and left to Express, for the router below.
  const carried = new WeakMap<IncomingMessage, ResolvedRequest>();
  const router = Router();
  const parseJson = express.json({ limit: READER_BODY_LIMIT, strict: false, type: () => true });

  router.use(async (req, res, next) => {
    // Inside the router the target is relative to /api/portal, as the hot path sees it.
    const resolved = carried.get(req) ?? resolveLine(`${req.method} ${req.url}`);

    if (resolved.kind === "refused") {
      throw new HttpError(resolved.status, resolved.message, resolved.allow ? { Allow: resolved.allow } : undefined);
    }
    if (deps.preview?.inPreview(req)) {
      await answerPreview(req, res, resolved, deps.preview);
      return;
    }
    if (resolved.kind === "get") {
      if (resolved.call.uncached) {
        await chargeMiss(req);
        sendUncached(res, await callUpstream(() => upstream.request("GET", API_PREFIX + resolved.key, undefined, res.locals.reqId)));
        return;
      }
      // A cached answer (here or shared) or a share of a load under way costs the upstream nothing: never charged.
      if (reader.startsLoad(resolved.key) && !(await reader.adoptShared(resolved.key))) await chargeMiss(req);
      sendApiAnswer(req, res, await reader.get(resolved.key, res.locals.reqId), settings.staleMs);
      return;
    }

    const client = clientKeyOf(req.ip);
    const admitted = await readerGuard.admit(client);
    if (!admitted.ok) {
      throw new HttpError(429, "too many reader updates; try again later", { "Retry-After": String(admitted.retryAfterS) });
    }
    await chargeMiss(req);
    parseJson(req, res, async (err?: unknown) => {
      try {
        if (err) throw err;
        const parsed = parseReaderBody(req.body);
        if (!parsed.ok) throw new HttpError(400, parsed.error);
        const body = parsed.reader;
        const payload = Buffer.from(JSON.stringify(body));
        const answer = await callUpstream(() =>
          readerGuard.forwardOnce(
            `${client}|${body.type}|${body.pid}`,
            () => upstream.request("PUT", API_PREFIX + resolved.call.path, payload, res.locals.reqId),
            (answer) => answer.status >= 200 && answer.status <= 299,
          ),
        );
        if (answer === DUPLICATE) {
          res.status(200).set({ "Cache-Control": "no-store", "X-Reader": "duplicate" }).json({ code: 0, msg: "ok", data: null });
          return;
        }
        sendUncached(res, answer);
      } catch (error) {
        next(error);
      }
    });
  });

  /** Charged as any miss; an editor's reading is not a reader's, so a read is never counted. */
  async function answerPreview(
    req: Request,
    res: Response,
    resolved: Exclude<ResolvedRequest, { kind: "refused" }>,
    preview: NonNullable<PortalApiDeps["preview"]>,
  ): Promise<void> {
    if (resolved.kind === "reader-put") {
      res.status(200).set({ "Cache-Control": "private, no-store", "X-Reader": "preview" }).json({ code: 0, msg: "ok", data: null });
      return;
    }
    await chargeMiss(req);
    if (resolved.call.uncached) {
      const path = previewPathOf(API_PREFIX + resolved.key, preview.param);
      const answer = await callUpstream(() => upstream.request("GET", path, undefined, res.locals.reqId));
      res.setHeader("X-Robots-Tag", "noindex");
      sendUncached(res, answer, "private, no-store");
      return;
    }
    const outcome = await preview.reader.get(resolved.key, res.locals.reqId);
    sendPrepared(req, res, outcome.value.ready, PREVIEW_HEADERS);
  }

  const prefix = `${API_PREFIX}/`;
  const fastPath: RequestFastPath = (req, res) => {
    const url = req.url ?? "";
    if ((req.method !== "GET" && req.method !== "HEAD") || !url.startsWith(prefix) || url.length > maxUrlLength) return undefined;
    const resolved = resolveLine(`${req.method} ${url.slice(API_PREFIX.length)}`);
    const hit = resolved.kind === "get" && !resolved.call.uncached ? reader.fresh(resolved.key) : undefined;
    if (!hit) {
      // What Express would charge (see above): an uncached call, or a load nothing shares.
      const charged = resolved.kind === "get" && (resolved.call.uncached || reader.startsLoad(resolved.key));
      const refusal = charged ? deps.refuseEarly?.(req) : undefined;
      if (refusal) {
        void refusal.then((retryAfterS) => sendApiRefusal(res, retryAfterS, deps.answerHeaders ?? []));
        return "refused";
      }
      carried.set(req, resolved);
      return undefined;
    }
    sendApiAnswer(req, res, hit, settings.staleMs);
    deps.recompressor?.noteHit(hit.value.ready);
    return hit.status;
  };
  return Object.assign(router, { fastPath });
}

function sendApiRefusal(res: ServerResponse, retryAfterS: number, headers: readonly (readonly [string, string])[]): void {
  writeErrorAnswer(res, answerOf(tooManyMisses(retryAfterS), true), headers);
}

async function callUpstream<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw httpErrorOf(err);
  }
}

function sendUncached(res: Response, answer: UpstreamResponse, cacheControl = "no-store"): void {
  if (answer.status !== 404 && (answer.status < 200 || answer.status > 299)) {
    throw new HttpError(502, `upstream answered ${answer.status}`);
  }
  res.status(answer.status).set({ "Cache-Control": cacheControl, "Content-Type": "application/json; charset=utf-8" }).send(answer.body);
}
