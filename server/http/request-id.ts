import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";

const SAFE_REQUEST_ID = /^[\w.-]{1,64}$/;

/** The caller's X-Request-Id when it is safe to echo, else a new one (docs/behaviour.md#logs). */
export const assignRequestId: RequestHandler = (req, res, next) => {
  const inbound = req.get("x-request-id");
  const reqId = inbound && SAFE_REQUEST_ID.test(inbound) ? inbound : randomUUID();
  res.locals.reqId = reqId;
  res.setHeader("X-Request-Id", reqId);
  next();
};
