/**
 * Who may purge (docs/behaviour.md#purging): a Standard Webhooks signature (HMAC-SHA256 of
 * `id.timestamp.body` under the base64 part of a `whsec_` secret, in `webhook-signature`
 * as `v1,<base64>`, several space-separated) or `Authorization: Bearer <secret>` (over
 * https, or from this machine), with any of the configured secrets. Every comparison takes the same time whatever it
 * compares, so timing tells an attacker nothing.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { isIPv4 } from "node:net";
import type { PurgeSecret } from "../config.ts";

/** How far a signed timestamp may be from our clock, either way. */
export const TIMESTAMP_TOLERANCE_S = 5 * 60;
export const MAX_ID_LENGTH = 256;
/** More signatures than anyone rotating keys would send are not all tried. */
const MAX_SIGNATURES = 8;

/** Equal text, in a time that depends on neither text: both are hashed to one length first. */
function sameText(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * True when a bearer token may be taken from this request: over https (as Express reads it,
 * X-Forwarded-Proto counting only from a trusted proxy) or from a client on this machine.
 * Anywhere else, plain http has shown the secret to every hop on the way.
 */
export function bearerMaySend(secure: boolean, clientAddress: string | undefined): boolean {
  if (secure) return true;
  const address = clientAddress?.replace(/^::ffff:(?=\d+\.)/i, "") ?? "";
  return address === "::1" || (isIPv4(address) && address.startsWith("127."));
}

/** True when the Authorization header is `Bearer <one of the secrets>`. */
export function bearerMatches(authorization: string | undefined, secrets: readonly PurgeSecret[]): boolean {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
  if (token === undefined) return false;
  // Every secret is compared, whichever matches, so the time says nothing about which.
  return secrets.map((secret) => sameText(token, secret.text)).includes(true);
}

export interface WebhookHeaders {
  id: string;
  timestamp: string;
  signatures: string[];
}

export type WebhookCheck = { ok: true; headers: WebhookHeaders } | { ok: false; status: 400 | 401; error: string };

/** The webhook headers, shaped as the standard says and with a timestamp near our clock; checked before the body is read. */
export function webhookHeadersOf(headers: IncomingHttpHeaders, nowMs: number): WebhookCheck {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signature = headers["webhook-signature"];
  if (typeof id !== "string" || typeof timestamp !== "string" || typeof signature !== "string") {
    return {
      ok: false,
      status: 401,
      error: "sign the request (webhook-id, webhook-timestamp, webhook-signature) or send Authorization: Bearer",
    };
  }
  if (id.length === 0 || id.length > MAX_ID_LENGTH)
    return { ok: false, status: 400, error: `webhook-id must be 1 to ${MAX_ID_LENGTH} characters` };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, status: 400, error: "webhook-timestamp must be whole seconds since 1970" };
  if (Math.abs(Number(timestamp) - nowMs / 1000) > TIMESTAMP_TOLERANCE_S) {
    return { ok: false, status: 400, error: `webhook-timestamp is more than ${TIMESTAMP_TOLERANCE_S / 60} minutes off` };
  }
  const signatures = signature
    .split(" ")
    .filter((part) => part.startsWith("v1,"))
    .slice(0, MAX_SIGNATURES)
    .map((part) => part.slice(3));
  return { ok: true, headers: { id, timestamp, signatures } };
}

/** True when one of the signatures is the HMAC of `id.timestamp.body` under one of the secrets. */
export function signatureMatches(webhook: WebhookHeaders, body: Buffer, secrets: readonly PurgeSecret[]): boolean {
  const signed = Buffer.concat([Buffer.from(`${webhook.id}.${webhook.timestamp}.`), body]);
  let matched = false;
  for (const secret of secrets) {
    const expected = createHmac("sha256", secret.key).update(signed).digest("base64");
    for (const given of webhook.signatures) matched = sameText(given, expected) || matched;
  }
  return matched;
}
