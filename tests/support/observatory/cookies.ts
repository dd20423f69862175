/** The cookies test: every Set-Cookie line as a cookie jar reads it, the worst outcome kept. */

import { type Page, setCookiesOf } from "./page.ts";
import { worse } from "./scoring.ts";

interface Cookie {
  name: string;
  secure: boolean;
  httpOnly: boolean;
  /** Lower case; null when the attribute is absent. */
  sameSite: string | null;
}

/** A Set-Cookie line as a cookie jar stores it; null when a jar would ignore it. */
function parseSetCookie(line: string): Cookie | null {
  const [pair = "", ...attributes] = line.split(";");
  const eq = pair.indexOf("=");
  const name = eq === -1 ? "" : pair.slice(0, eq).trim();
  if (!name) return null;
  const cookie: Cookie = { name, secure: false, httpOnly: false, sameSite: null };
  for (const attribute of attributes) {
    const at = attribute.indexOf("=");
    const key = (at === -1 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value =
      at === -1
        ? ""
        : attribute
            .slice(at + 1)
            .trim()
            .toLowerCase();
    if (key === "secure") cookie.secure = true;
    else if (key === "httponly") cookie.httpOnly = true;
    else if (key === "samesite") cookie.sameSite = value;
  }
  return cookie;
}

/** SameSite present without a value, or with one other than Lax, Strict or None. */
function hasInvalidSameSite(line: string): boolean {
  return line
    .trim()
    .split(";")
    .some((part) => {
      const [key = "", value] = part.trim().split("=");
      if (key.trim().toLowerCase() !== "samesite") return false;
      return !value || !["lax", "strict", "none"].includes(value.trim().toLowerCase());
    });
}

/** Worst last: a later outcome replaces an earlier one, never the other way round. */
const COOKIE_SEVERITY = [
  "cookies-without-secure-flag-but-protected-by-hsts",
  "cookies-without-secure-flag",
  "cookies-session-without-secure-flag-but-protected-by-hsts",
  "cookies-samesite-flag-invalid",
  "cookies-anticsrf-without-samesite-flag",
  "cookies-session-without-httponly-flag",
  "cookies-session-without-secure-flag",
];

/** A session cookie's name contains "login" or "sess"; an anti-CSRF token's contains "csrf". */
export function cookies(page: Page, otherSetCookies: readonly string[], hstsResult: string): string {
  const hsts = hstsResult === "hsts-implemented-max-age-at-least-six-months" || hstsResult === "hsts-preloaded";
  const pageLines = setCookiesOf(page.headers);
  let result: string | null = null;
  for (const line of pageLines) {
    if (hasInvalidSameSite(line)) result = worse(result, "cookies-samesite-flag-invalid", COOKIE_SEVERITY);
  }
  // The jar keeps one cookie per name (the last one set); the Observatory ignores Heroku's affinity cookie.
  const jar = new Map<string, Cookie>();
  for (const line of [...pageLines, ...otherSetCookies]) {
    const cookie = parseSetCookie(line);
    if (cookie && cookie.name !== "heroku-session-affinity") jar.set(cookie.name, cookie);
  }
  if (jar.size === 0) return "cookies-not-found";

  let missingSameSite = false;
  for (const cookie of jar.values()) {
    const name = cookie.name.toLowerCase();
    const session = name.includes("login") || name.includes("sess");
    const antiCsrf = name.includes("csrf");
    if (!cookie.secure && cookie.sameSite === "none") result = worse(result, "cookies-samesite-flag-invalid", COOKIE_SEVERITY);
    if (!cookie.secure) {
      result = worse(result, hsts ? "cookies-without-secure-flag-but-protected-by-hsts" : "cookies-without-secure-flag", COOKIE_SEVERITY);
    }
    if (antiCsrf && !cookie.sameSite) result = worse(result, "cookies-anticsrf-without-samesite-flag", COOKIE_SEVERITY);
    if (session && !cookie.secure) {
      const outcome = hsts ? "cookies-session-without-secure-flag-but-protected-by-hsts" : "cookies-session-without-secure-flag";
      result = worse(result, outcome, COOKIE_SEVERITY);
    }
    if (session && !cookie.httpOnly) result = worse(result, "cookies-session-without-httponly-flag", COOKIE_SEVERITY);
    if (!cookie.sameSite) missingSameSite = true;
  }
  return result ?? (missingSameSite ? "cookies-secure-with-httponly-sessions" : "cookies-secure-with-httponly-sessions-and-samesite");
}
