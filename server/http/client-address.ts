import type { IncomingMessage } from "node:http";
import express, { type Express } from "express";

const trustedIp = Object.getOwnPropertyDescriptor(express.request, "ip")?.get;

/**
 * The client's address as `app` trusts it (its trust proxy setting, from TRUST_PROXY),
 * for any request, including those the fast path answered before Express dressed them:
 * Express's own `req.ip`, given the three things it reads.
 */
export function clientAddressReader(app: Express): (req: IncomingMessage) => string | undefined {
  return (req) => trustedIp?.call({ app, headers: req.headers, socket: req.socket }) as string | undefined;
}
