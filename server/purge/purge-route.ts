/**
 * `POST /portal/_purge` (docs/behaviour.md#purging). A refusal costs a few header checks and at
 * most one HMAC, never a lookup or an upstream request, so it is not charged to the miss budget.
 */
import express, { type Request, type Response, Router } from "express";
import type { PurgeSecret } from "../config.ts";
import { answerOf, describeError, HttpError, sendErrorAnswer } from "../http/errors.ts";
import { bearerMatches, bearerMaySend, signatureMatches, type WebhookHeaders, webhookHeadersOf } from "./purge-auth.ts";
import { parsePurgeBody } from "./purge-request.ts";
import type { Purger } from "./purger.ts";
import type { IdClaim } from "./shared-purges.ts";

const PURGE_PATH = "/portal/_purge";
const PURGE_BODY_LIMIT = "64kb";

interface PurgeRouteDeps {
  secrets: readonly PurgeSecret[];
  purger: Purger;
  /** Across instances (REDIS_URL); without it, the process's own record decides. */
  claimId?: (id: string) => Promise<IdClaim>;
  now?: () => number;
}

/** Before a sender retries a purge refused while Redis is away (its probe runs each second). */
const RETRY_AFTER_S = 5;

const refuse = (res: Response, status: number, message: string) => sendErrorAnswer(res, answerOf(new HttpError(status, message), true));

export function createPurgeRouter({ secrets, purger, claimId, now = Date.now }: PurgeRouteDeps): Router {
  const router = Router();
  const readBody = express.raw({ limit: PURGE_BODY_LIMIT, type: () => true });

  router.all(PURGE_PATH, (req: Request, res: Response, next) => {
    if (secrets.length === 0) return refuse(res, 404, "not found");
    if (req.method !== "POST") {
      res.set("Allow", "POST");
      return refuse(res, 405, `method ${req.method} is not allowed here; use POST`);
    }
    let webhook: WebhookHeaders | undefined;
    // A signed request is judged by its signature, whatever Authorization it also carries.
    if (req.headers["webhook-signature"] === undefined && req.headers.authorization !== undefined) {
      if (!bearerMaySend(req.secure, req.ip)) {
        return refuse(res, 403, "a bearer token is taken only over https or from this machine: send it over https, or sign the request");
      }
      if (!bearerMatches(req.headers.authorization, secrets)) return refuse(res, 401, "the bearer token is not a purge secret");
    } else {
      const checked = webhookHeadersOf(req.headers, now());
      if (!checked.ok) return refuse(res, checked.status, checked.error);
      webhook = checked.headers;
    }
    const answer = async (err?: unknown) => {
      if (err) {
        const { status, message } = describeError(err);
        return status < 500 ? refuse(res, status, message) : next(err);
      }
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      if (webhook) {
        if (!signatureMatches(webhook, body, secrets)) return refuse(res, 401, "webhook-signature does not match the body");
        if (purger.seen(webhook.id)) return refuse(res, 409, "this webhook-id was already received");
      }
      const parsed = parsePurgeBody(body);
      if (!parsed.ok) return refuse(res, 400, parsed.error);
      if (webhook && claimId) {
        const claim = await claimId(webhook.id);
        if (claim === "seen") return refuse(res, 409, "this webhook-id was already received");
        if (claim === "unknown") {
          res.set("Retry-After", String(RETRY_AFTER_S));
          return refuse(res, 503, "cannot tell whether this webhook-id was already received (Redis is away); retry later");
        }
      }
      const request = webhook ? { ...parsed.request, id: webhook.id } : parsed.request;
      res
        .status(202)
        .set("Cache-Control", "no-store")
        .json({ purged: purger.purge(request, "local") });
    };
    readBody(req, res, (err?: unknown) => {
      answer(err).catch(next);
    });
  });
  return router;
}
