/**
 * The `portal_preview` cookie (docs/behaviour.md#preview): "<expires>.<sig>", its own signature over "cookie.<expires>"
 * (a link's path starts with "/", so no link signs the same text). One predicate tells whether a request is a preview.
 */
import type { IncomingMessage } from "node:http";
import type { PurgeSecret } from "../config.ts";
import { signatureOf, signedByOneOf } from "../purge/purge-auth.ts";

export const PREVIEW_COOKIE = "portal_preview";
/** However long the link is valid, a preview ends within a day of its opening. */
export const MAX_PREVIEW_S = 86_400;
const COOKIE_PATH = "/portal";
const VALUE = new RegExp(`(?:^|;\\s*)${PREVIEW_COOKIE}=(\\d{1,12})\\.([A-Za-z0-9_-]{1,64})(?:;|$)`);

export function previewCookieOf(expiresS: number, nowMs: number, secret: PurgeSecret, secure: boolean): string {
  const ends = Math.min(expiresS, Math.floor(nowMs / 1000) + MAX_PREVIEW_S);
  const value = `${ends}.${signatureOf(secret, `cookie.${ends}`, "base64url")}`;
  const maxAge = Math.max(1, ends - Math.floor(nowMs / 1000));
  return `${PREVIEW_COOKIE}=${value}; Max-Age=${maxAge}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export function clearedPreviewCookie(secure: boolean): string {
  return `${PREVIEW_COOKIE}=; Max-Age=0; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export type InPreview = (req: IncomingMessage) => boolean;

/** No secrets: never a preview. A request without the cookie costs one substring search. */
export function inPreviewOf(secrets: readonly PurgeSecret[], now: () => number = Date.now): InPreview {
  if (secrets.length === 0) return () => false;
  return (req) => {
    const header = req.headers.cookie;
    if (header === undefined || !header.includes(PREVIEW_COOKIE)) return false;
    const match = VALUE.exec(header);
    if (!match) return false;
    const [, ends, sig] = match as unknown as [string, string, string];
    if (Number(ends) * 1000 <= now()) return false;
    return signedByOneOf(`cookie.${ends}`, sig, secrets, "base64url");
  };
}
