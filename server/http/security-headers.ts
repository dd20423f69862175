// Security headers for every answer (docs/behaviour.md#security-headers).
import { createHash } from "node:crypto";
import type { RequestHandler } from "express";
import helmet from "helmet";

interface CspOptions {
  /** Vite's development server needs inline scripts and a websocket. */
  dev: boolean;
  https: boolean;
}

export function scriptHashOf(source: string): string {
  return `'sha256-${createHash("sha256").update(source, "utf8").digest("base64")}'`;
}

export function contentSecurityPolicy(options: CspOptions, scriptHashes: readonly string[] = []): string {
  const directives: [string, string][] = [
    ["default-src", "'self'"],
    ["script-src", ["'self'", ...scriptHashes, ...(options.dev ? ["'unsafe-inline'"] : [])].join(" ")],
    ["style-src", options.dev ? "'self' 'unsafe-inline'" : "'self'"],
    ["style-src-attr", "'unsafe-inline'"],
    // Every image comes through the same-origin image endpoint (server/images/), so none is fetched from elsewhere.
    ["img-src", "'self' data:"],
    ["font-src", "'self'"],
    ["connect-src", options.dev ? "'self' ws: wss:" : "'self'"],
    ["object-src", "'none'"],
    ["base-uri", "'none'"],
    ["form-action", "'self'"],
    ["frame-ancestors", "'self'"],
  ];
  if (options.https) directives.push(["upgrade-insecure-requests", ""]);
  return directives.map(([name, value]) => (value ? `${name} ${value}` : name)).join("; ");
}

/** Worked out once (helmet's, recorded from one run of its middleware, and our policy): hot paths send it as is. */
export function securityHeaderList(options: CspOptions): [string, string][] {
  const recorded = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: unknown) => recorded.set(name, String(value)),
    removeHeader: (name: string) => recorded.delete(name),
  };
  helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: options.https ? { maxAge: 63_072_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
  })({} as Parameters<RequestHandler>[0], recorder as unknown as Parameters<RequestHandler>[1], () => {});
  return [["Content-Security-Policy", contentSecurityPolicy(options)], ...recorded];
}

export function securityHeaders(list: readonly (readonly [string, string])[]): RequestHandler {
  return (_req, res, next) => {
    for (const [name, value] of list) res.setHeader(name, value);
    next();
  };
}
