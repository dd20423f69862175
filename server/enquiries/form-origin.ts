/**
 * Whether a form post or a token request comes from this site's own pages, and which site a
 * token is bound to (docs/behaviour.md#enquiries, "Only from our pages").
 */
import type { Request } from "express";

/** Without PUBLIC_ORIGIN: the host asked for, as the binding's site (a scheme would be wrong behind a TLS proxy). */
export function siteOf(req: Request, publicOrigin: string | undefined): string {
  return publicOrigin ?? `//${hostOf(req, "http:")}`;
}

/** The host the request was made to, as a URL of `scheme` writes it (no default port, lower case). */
function hostOf(req: Request, scheme: string): string {
  try {
    return new URL(`${scheme}//${req.host ?? ""}`).host;
  } catch {
    return "";
  }
}

function sameOrigin(origin: string, req: Request, publicOrigin: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === "null") return false;
  if (publicOrigin) return url.origin === publicOrigin;
  // As Go's CrossOriginProtection: the host alone, since a proxy that ends TLS leaves the scheme unknown here.
  const host = hostOf(req, url.protocol);
  return host !== "" && url.host === host;
}

/** Undefined when the request may be from our pages; else why not, as the client is told. */
export function crossSiteRefusal(req: Request, publicOrigin: string | undefined): string | undefined {
  if (req.get("sec-fetch-site") === "cross-site")
    return "enquiries are taken only from this site's own pages: this one was sent from another site";
  const origin = req.get("origin");
  // No Origin (curl, an old browser): allowed; the token, the hourly limit and the miss budget still apply.
  if (origin === undefined || sameOrigin(origin, req, publicOrigin)) return undefined;
  return `enquiries are taken only from this site's own pages: this one was sent from ${origin.slice(0, 100)}`;
}
