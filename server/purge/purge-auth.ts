/** Who may purge: a Standard Webhooks signature or a bearer token, compared in constant time (docs/behaviour.md#purging). */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { isIPv4 } from "node:net";
import type { PurgeSecret } from "../config.ts";

export const TIMESTAMP_TOLERANCE_S = 5 * 60;
export const MAX_ID_LENGTH = 256;
/** More signatures than anyone rotating keys would send are not all tried. */
const MAX_SIGNATURES = 8;

/** Both are hashed to one length first, so the time depends on neither. */
function sameText(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Elsewhere than https or this machine, plain http has shown the secret to every hop on the way. */
export function bearerMaySend(secure: boolean, clientAddress: string | undefined): boolean {
  if (secure) return true;
  const address = clientAddress?.replace(/^::ffff:(?=\d+\.)/i, "") ?? "";
  return address === "::1" || (isIPv4(address) && address.startsWith("127."));
}

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

type WebhookCheck = { ok: true; headers: WebhookHeaders } | { ok: false; status: 400 | 401; error: string };

/** Checked before the body is read. */
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

export function signatureMatches(webhook: WebhookHeaders, body: Buffer, secrets: readonly PurgeSecret[]): boolean {
  const signed = Buffer.concat([Buffer.from(`${webhook.id}.${webhook.timestamp}.`), body]);
  let matched = false;
  for (const given of webhook.signatures) matched = signedByOneOf(signed, given, secrets, "base64") || matched;
  return matched;
}

/** `data`'s HMAC-SHA256 under `secret`, as purge and preview signatures are made. */
export function signatureOf(secret: PurgeSecret, data: string | Buffer, encoding: "base64" | "base64url"): string {
  return createHmac("sha256", secret.key).update(data).digest(encoding);
}

/** Whether `given` is `data`'s signature under one of `secrets`; each is compared, whichever matches. */
export function signedByOneOf(
  data: string | Buffer,
  given: string,
  secrets: readonly PurgeSecret[],
  encoding: "base64" | "base64url",
): boolean {
  let matched = false;
  for (const secret of secrets) matched = sameText(given, signatureOf(secret, data, encoding)) || matched;
  return matched;
}
