/**
 * `POST /portal/_purge` (docs/behaviour.md#purging). Without PURGE_SECRET it does not exist
 * (404, whatever the method). Unauthenticated requests cost a few header checks and, for
 * a signed one, one HMAC over a body of at most PURGE_BODY_LIMIT: never a cache lookup,
 * an upstream request or a render, so they are not charged to the miss budget. Nothing it
 * answers is cached.
 */
import express, { type Request, type Response, Router } from "express";
import { errorEnvelope } from "../../shared/envelope.ts";
import type { PurgeSecret } from "../config.ts";
import { describeError } from "../http/errors.ts";
import { bearerMatches, bearerMaySend, signatureMatches, type WebhookHeaders, webhookHeadersOf } from "./purge-auth.ts";
import { parsePurgeBody } from "./purge-request.ts";
import type { Purger } from "./purger.ts";

export const PURGE_PATH = "/portal/_purge";
const PURGE_BODY_LIMIT = "64kb";

export interface PurgeRouteDeps {
  secrets: readonly PurgeSecret[];
  purger: Purger;
  now?: () => number;
}

const refuse = (res: Response, status: number, message: string) =>
  res.status(status).set("Cache-Control", "no-store").json(errorEnvelope(status, message));

export function createPurgeRouter({ secrets, purger, now = Date.now }: PurgeRouteDeps): Router {
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
    readBody(req, res, (err?: unknown) => {
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
      const request = webhook ? { ...parsed.request, id: webhook.id } : parsed.request;
      res
        .status(202)
        .set("Cache-Control", "no-store")
        .json({ purged: purger.purge(request, "local") });
    });
  });
  return router;
}
