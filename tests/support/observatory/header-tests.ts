/**
 * The other tests, each of one header (or its <meta> equivalent, or the page's scripts): HSTS, CORS, redirection,
 * referrer, subresource integrity, nosniff, framing, resource policy.
 */

import type { CspOutcome } from "./csp.ts";
import { headerOf, type Page } from "./page.ts";
import { type ObservatoryInput, worse } from "./scoring.ts";

/** Six months is 15768000 s; the Observatory accepts the common 180 days (15552000 s). */
const SIX_MONTHS = 15_552_000;

export function strictTransportSecurity(page: Page): string {
  if (page.url.protocol !== "https:") return "hsts-not-implemented-no-https";
  const header = headerOf(page.headers, "strict-transport-security");
  if (header === null) return "hsts-not-implemented";
  const value = header.slice(0, 1024);
  // A comma means the header was sent more than once.
  if (value.includes(",")) return "hsts-header-invalid";
  let maxAge: number | null = null;
  for (const parameter of value.split(";").map((p) => p.trim().toLowerCase())) {
    // As the Observatory reads it: parseInt of whatever follows "max-age=" (so a value it
    // cannot read as a number is not rejected here either).
    if (parameter.startsWith("max-age=")) maxAge = Number.parseInt(parameter.slice(8, 128), 10);
  }
  if (maxAge === null) return "hsts-header-invalid";
  return maxAge < SIX_MONTHS ? "hsts-implemented-max-age-less-than-six-months" : "hsts-implemented-max-age-at-least-six-months";
}

/** Credentialed access granted to whatever Origin asks is the failure; `*` is public, anything else restricted. */
export function crossOriginResourceSharing(preflight: ObservatoryInput["corsPreflight"]): string {
  const allowOrigin = preflight ? headerOf(preflight.headers, "access-control-allow-origin") : null;
  if (!preflight || !allowOrigin) return "cross-origin-resource-sharing-not-implemented";
  if (allowOrigin.slice(0, 256).trim().toLowerCase() === "*") return "cross-origin-resource-sharing-implemented-with-public-access";
  const credentials = headerOf(preflight.headers, "access-control-allow-credentials");
  if (allowOrigin === preflight.origin && credentials?.trim().toLowerCase() === "true") {
    return "cross-origin-resource-sharing-implemented-with-universal-access";
  }
  return "cross-origin-resource-sharing-implemented-with-restricted-access";
}

export function redirection(route: readonly string[] | null): string {
  if (route === null) return "redirection-not-needed-no-http";
  const urls = route.map((url) => new URL(url));
  const [start, next] = urls;
  if (urls.length <= 1 || !start || !next) return "redirection-missing";
  if (urls.at(-1)?.protocol !== "https:") return "redirection-not-to-https";
  if (next.protocol === "http:") return "redirection-not-to-https-on-initial-redirection";
  if (start.protocol === "http:" && next.protocol === "https:" && start.hostname !== next.hostname) return "redirection-off-host-from-http";
  return "redirection-to-https";
}

const PRIVATE_REFERRERS = ["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"];
const UNSAFE_REFERRERS = ["origin", "origin-when-cross-origin", "unsafe-url", "no-referrer-when-downgrade"];

/** The header and `<meta name="referrer">` together; the last policy a browser knows wins. */
export function referrerPolicy(page: Page): string {
  const values = [headerOf(page.headers, "referrer-policy"), page.metaReferrer].filter((v): v is string => v !== null);
  if (values.length === 0) return "referrer-policy-not-implemented";
  const known = values
    .join(", ")
    .split(",")
    .map((token) => token.trim().toLowerCase())
    .filter((token) => PRIVATE_REFERRERS.includes(token) || UNSAFE_REFERRERS.includes(token));
  const policy = known.at(-1) ?? "";
  if (PRIVATE_REFERRERS.includes(policy)) return "referrer-policy-private";
  if (UNSAFE_REFERRERS.includes(policy)) return "referrer-policy-unsafe";
  return "referrer-policy-header-invalid";
}

/** Worst last, as for cookies. */
const SRI_SEVERITY = [
  "sri-implemented-and-all-scripts-loaded-securely",
  "sri-implemented-and-external-scripts-loaded-securely",
  "sri-implemented-but-external-scripts-not-loaded-securely",
  "sri-not-implemented-but-external-scripts-loaded-securely",
  "sri-not-implemented-and-external-scripts-not-loaded-securely",
  "sri-not-implemented-response-not-html",
];

/**
 * Scripts by `src`: a relative URL is this origin; a protocol-relative one (`//host/…`) is
 * foreign and insecure; a full URL is the same site when its registrable domain is the
 * page's. Same-site scripts need no integrity (but earn the bonus with it, over https);
 * foreign ones need integrity and https.
 */
export function subresourceIntegrity(page: Page, registrableDomain: (host: string) => string): string {
  if (!page.isHtml) return "sri-not-implemented-response-not-html";
  if (page.scripts.length === 0) return "sri-not-implemented-but-no-scripts-loaded";
  const https = page.url.protocol === "https:";
  const siteDomain = registrableDomain(page.url.hostname);
  let result: string | null = null;
  let foreignScripts = false;
  for (const script of page.scripts) {
    if (!script.attribs.src) continue;
    const src = script.attribs.src.trim();
    const integrity = Boolean(script.attribs.integrity);
    const protocolRelative = /^\/\/[^/]/.test(src);
    const fullUrl = /^https?:\/\//i.test(src);
    const relative = !protocolRelative && !fullUrl;
    const scheme = fullUrl ? new URL(src).protocol : null;
    const sameSite = protocolRelative || relative || (fullUrl && registrableDomain(new URL(src).hostname) === siteDomain);
    const secureOrigin = relative || (sameSite && !protocolRelative);
    const secureScheme = scheme === "https:" || (relative && https);
    if (secureOrigin) {
      if (integrity && secureScheme && result === null) result = "sri-implemented-and-all-scripts-loaded-securely";
      continue;
    }
    foreignScripts = true;
    if (integrity && !secureScheme) result = worse(result, "sri-implemented-but-external-scripts-not-loaded-securely", SRI_SEVERITY);
    else if (!integrity && secureScheme) result = worse(result, "sri-not-implemented-but-external-scripts-loaded-securely", SRI_SEVERITY);
    else if (!integrity) result = worse(result, "sri-not-implemented-and-external-scripts-not-loaded-securely", SRI_SEVERITY);
  }
  if (result !== null) return result;
  return foreignScripts
    ? "sri-implemented-and-external-scripts-loaded-securely"
    : "sri-not-implemented-but-all-scripts-loaded-from-secure-origin";
}

export function xContentTypeOptions(page: Page): string {
  const header = headerOf(page.headers, "x-content-type-options");
  if (!header) return "x-content-type-options-not-implemented";
  return header.slice(0, 256).trim().toLowerCase() === "nosniff"
    ? "x-content-type-options-nosniff"
    : "x-content-type-options-header-invalid";
}

/** A CSP frame-ancestors directive (in any policy the CSP test could read) supersedes the header. */
export function xFrameOptions(page: Page, csp: CspOutcome): string {
  if (csp.directives?.has("frame-ancestors")) return "x-frame-options-implemented-via-csp";
  const header = headerOf(page.headers, "x-frame-options");
  if (!header) return "x-frame-options-not-implemented";
  const value = header.slice(0, 1024).trim().toLowerCase();
  if (value === "deny" || value === "sameorigin") return "x-frame-options-sameorigin-or-deny";
  if (value.startsWith("allow-from")) return "x-frame-options-allow-from-origin";
  return "x-frame-options-header-invalid";
}

export function crossOriginResourcePolicy(page: Page): string {
  const header = headerOf(page.headers, "cross-origin-resource-policy");
  if (!header) return "corp-not-implemented";
  switch (header.slice(0, 256).trim().toLowerCase()) {
    case "same-origin":
      return "corp-implemented-with-same-origin";
    case "same-site":
      return "corp-implemented-with-same-site";
    case "cross-origin":
      return "corp-implemented-with-cross-origin";
    default:
      return "corp-header-invalid";
  }
}

/* ------------------------------------------------------------------ the score */
