/**
 * /api/portal: the allowlisted, validated, cached proxy of CONTRACT section 4.
 * GET answers come from the response cache; reader PUTs pass the reader guard and
 * are forwarded uncached; anything else is refused before the upstream hears of it.
 */
import express, { type Request, type Response, Router } from "express";
import { API_PREFIX } from "../../shared/api-calls.ts";
import { errorEnvelope } from "../../shared/envelope.ts";
import { parseReaderBody } from "../../shared/reader-body.ts";
import type { CacheOutcome } from "../cache/response-cache.ts";
import type { Config } from "../config.ts";
import { HttpError } from "../http/errors.ts";
import { type MissBudget, tooManyMisses } from "../http/miss-budget.ts";
import { matchesEtag } from "../http/prepared-answer.ts";
import type { UpstreamClient } from "../upstream/client.ts";
import { type ApiReader, httpErrorOf } from "./api-reader.ts";
import { clientKeyOf } from "./client-key.ts";
import type { ReaderGuard } from "./reader-guard.ts";
import { classifyPathsOf, resolveApiRequest } from "./resolve-request.ts";

export interface PortalApiDeps {
  config: Config;
  reader: ApiReader;
  upstream: UpstreamClient;
  readerGuard: ReaderGuard;
  missBudget: MissBudget;
}

const READER_BODY_LIMIT = "1kb";

export function apiCacheControl(outcome: Pick<CacheOutcome, "status" | "freshForMs">, staleMs: number): string {
  const staleS = Math.floor(staleMs / 1000);
  if (outcome.status === "STALE") return `public, max-age=0, stale-while-revalidate=${staleS}, stale-if-error=${staleS}`;
  if (outcome.freshForMs <= 0) return "no-store";
  return `public, max-age=${Math.floor(outcome.freshForMs / 1000)}, stale-while-revalidate=${staleS}, stale-if-error=${staleS}`;
}

function sendCached(req: Request, res: Response, outcome: CacheOutcome, staleMs: number): void {
  const { answer } = outcome;
  res.set({
    "X-Cache": outcome.status,
    "Cache-Control": apiCacheControl(outcome, staleMs),
    ETag: answer.etag,
    "Content-Type": "application/json; charset=utf-8",
  });
  if (answer.status === 200 && matchesEtag(req.get("if-none-match"), answer.etag)) {
    res.status(304).end();
    return;
  }
  res.status(answer.status).send(answer.body);
}

export function createPortalApiRouter(deps: PortalApiDeps): Router {
  const { config, reader, upstream, readerGuard, missBudget } = deps;
  /** Charges the client for a request about to reach the upstream; throws the 429 when its budget is spent. */
  const chargeMiss = (req: Request) => {
    const admitted = missBudget.take(req.ip);
    if (!admitted.ok) throw tooManyMisses(admitted.retryAfterS);
  };
  const classifyPaths = classifyPathsOf(config.classify);
  const router = Router();
  const parseJson = express.json({ limit: READER_BODY_LIMIT, strict: false, type: () => true });

  router.use(async (req, res, next) => {
    const rawQuery = req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?") + 1) : "";
    const resolved = resolveApiRequest(req.method, req.path, new URLSearchParams(rawQuery), classifyPaths);

    if (resolved.kind === "refused") {
      if (resolved.allow) res.set("Allow", resolved.allow);
      res.status(resolved.status).set("Cache-Control", "no-store").json(errorEnvelope(resolved.status, resolved.message));
      return;
    }
    if (resolved.kind === "get") {
      if (resolved.call.id === "readerCount") {
        chargeMiss(req);
        await forwardUncached(res, () => upstream.request("GET", API_PREFIX + resolved.key));
        return;
      }
      // A cached answer (fresh or stale), or a share of a load under way, costs the upstream nothing: never charged, never refused.
      if (reader.startsLoad(resolved.key)) chargeMiss(req);
      sendCached(req, res, await reader.get(resolved.key), config.cache.staleMs);
      return;
    }

    // Every reader PUT received counts toward the rate, valid or not.
    const client = clientKeyOf(req.ip);
    const admitted = readerGuard.admit(client);
    if (!admitted.ok) {
      throw new HttpError(429, "too many reader updates; try again later", { "Retry-After": String(admitted.retryAfterS) });
    }
    chargeMiss(req);
    parseJson(req, res, async (err?: unknown) => {
      try {
        if (err) throw err;
        const parsed = parseReaderBody(req.body);
        if (!parsed.ok) throw new HttpError(400, parsed.error);
        const body = parsed.reader;
        const dedupKey = `${client}|${body.type}|${body.pid}`;
        if (readerGuard.isDuplicate(dedupKey)) {
          res.status(200).set({ "Cache-Control": "no-store", "X-Reader": "duplicate" }).json({ code: 0, msg: "ok", data: null });
          return;
        }
        const payload = Buffer.from(JSON.stringify(body));
        await forwardUncached(res, () =>
          readerGuard.forwardOnce(
            dedupKey,
            () => upstream.request("PUT", `${API_PREFIX}/reader/reader`, payload),
            (answer) => answer.status >= 200 && answer.status <= 299,
          ),
        );
      } catch (error) {
        next(error);
      }
    });
  });
  return router;
}

/** Reader calls are never cached: the upstream's answer goes back as it came, failures as 502/504. */
async function forwardUncached(res: Response, call: () => ReturnType<UpstreamClient["request"]>): Promise<void> {
  let answer: Awaited<ReturnType<UpstreamClient["request"]>>;
  try {
    answer = await call();
  } catch (err) {
    throw httpErrorOf(err);
  }
  if (answer.status !== 404 && (answer.status < 200 || answer.status > 299)) {
    throw new HttpError(502, `upstream answered ${answer.status}`);
  }
  res.status(answer.status).set({ "Cache-Control": "no-store", "Content-Type": "application/json; charset=utf-8" }).send(answer.body);
}
