import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";

const SAFE_REQUEST_ID = /^[\w.-]{1,64}$/;

/**
 * Gives each request Express handles an id: the caller's X-Request-Id when it is safe to
 * echo, else a new one. It goes back in the answer's X-Request-Id, into the access line,
 * and to the upstream with every request this one starts. Answers the fast path sends
 * before Express (cache hits) carry none: they start nothing to follow.
 */
export const assignRequestId: RequestHandler = (req, res, next) => {
  const inbound = req.get("x-request-id");
  const reqId = inbound && SAFE_REQUEST_ID.test(inbound) ? inbound : randomUUID();
  res.locals.reqId = reqId;
  res.setHeader("X-Request-Id", reqId);
  next();
};
