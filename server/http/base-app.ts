// The Express app every feature mounts on: client addresses, a request id, the URL bound and security headers.
import type { IncomingMessage } from "node:http";
import express, { type Express } from "express";
import { clientAddressReader, keepClientAddressesValid } from "./client-address.ts";
import { HttpError } from "./errors.ts";
import { assignRequestId } from "./request-id.ts";
import { securityHeaders } from "./security-headers.ts";

export const MAX_URL_LENGTH = 8 * 1024;

export function createBaseApp(
  trustProxy: string | number | boolean | undefined,
  commonHeaders: readonly (readonly [string, string])[],
): { app: Express; clientAddressOf: (req: IncomingMessage) => string | undefined } {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxy ?? false);
  keepClientAddressesValid(app);
  // Queries are parsed per call from the raw URL; Express's own parser is not needed.
  app.set("query parser", false);
  app.use(assignRequestId);
  app.use((req, _res, next) => {
    next(req.originalUrl.length > MAX_URL_LENGTH ? new HttpError(414, "request URL is too long") : undefined);
  });
  app.use(securityHeaders(commonHeaders));
  // What runs before Express (the fast paths, the access line) reads the client's address as Express would.
  return { app, clientAddressOf: clientAddressReader(app) };
}
