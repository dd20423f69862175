import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import express, { type Express } from "express";

const trustedIp = Object.getOwnPropertyDescriptor(express.request, "ip")?.get;

/** A forwarded entry that is not an address (Express passes it on) would let a client be anyone: the socket's counts. */
function clientAddress(app: Express, req: Pick<IncomingMessage, "headers" | "socket">): string | undefined {
  const trusted = trustedIp?.call({ app, headers: req.headers, socket: req.socket });
  return typeof trusted === "string" && isIP(trusted) !== 0 ? trusted : req.socket.remoteAddress;
}

export function keepClientAddressesValid(app: Express): void {
  Object.defineProperty(app.request, "ip", {
    configurable: true,
    enumerable: true,
    get(this: IncomingMessage) {
      return clientAddress(app, this);
    },
  });
}

/** `req.ip` as Express would give it, also for the requests the fast path answers before Express. */
export function clientAddressReader(app: Express): (req: IncomingMessage) => string | undefined {
  return (req) => clientAddress(app, req);
}
