import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import express, { type Express } from "express";

const trustedIp = Object.getOwnPropertyDescriptor(express.request, "ip")?.get;

/**
 * The address Express trusts (its trust proxy setting, from TRUST_PROXY) when it is one:
 * a trusted proxy passing on an X-Forwarded-For entry that is not an address (which
 * Express gives as it is) would let a client be anyone it likes; then the connection's own
 * address counts.
 */
function clientAddress(app: Express, req: Pick<IncomingMessage, "headers" | "socket">): string | undefined {
  const trusted = trustedIp?.call({ app, headers: req.headers, socket: req.socket });
  return typeof trusted === "string" && isIP(trusted) !== 0 ? trusted : req.socket.remoteAddress;
}

/** Makes `req.ip`, for every request of `app`, the client's address as `clientAddress` gives it. */
export function keepClientAddressesValid(app: Express): void {
  Object.defineProperty(app.request, "ip", {
    configurable: true,
    enumerable: true,
    get(this: IncomingMessage) {
      return clientAddress(app, this);
    },
  });
}

/**
 * The client's address as `app` trusts it, for any request, including those the fast path
 * answered before Express dressed them: `req.ip`, given the things it reads.
 */
export function clientAddressReader(app: Express): (req: IncomingMessage) => string | undefined {
  return (req) => clientAddress(app, req);
}
