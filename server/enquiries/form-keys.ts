/** The form token and the client-address hash, both keyed by FORM_SECRET (docs/behaviour.md#enquiries, "Spam"). */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const TOKEN_LIFETIME_MS = 24 * 3600_000;
export const MIN_FILL_MS = 3000;
/** Clocks of instances may differ this much: a token "issued" further ahead is forged. */
const CLOCK_SKEW_MS = 60_000;

type TokenCheck = { ok: true; nonce: string; issuedAt: number } | { ok: false; reason: "forged" | "expired" };

export interface FormKeys {
  issue(nowMs: number): string;
  check(token: string, nowMs: number): TokenCheck;
  clientHash(address: string): string;
}

export function createFormKeys(secret: string | undefined): FormKeys {
  const master = secret ?? randomBytes(32).toString("base64url");
  // One key per use, so a token's signature can never be passed off as an address hash.
  const tokenKey = createHmac("sha256", master).update("enquiry-token").digest();
  const clientKey = createHmac("sha256", master).update("client-address").digest();
  const sign = (body: string) => createHmac("sha256", tokenKey).update(body).digest("base64url");
  return {
    issue(nowMs) {
      const body = `v1.${Math.floor(nowMs).toString(36)}.${randomBytes(16).toString("base64url")}`;
      return `${body}.${sign(body)}`;
    },
    check(token, nowMs) {
      const match = /^(v1\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{22}))\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return { ok: false, reason: "forged" };
      const [, body, time, nonce, signature] = match as unknown as [string, string, string, string, string];
      const expected = Buffer.from(sign(body));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "forged" };
      const issuedAt = Number.parseInt(time, 36);
      if (issuedAt > nowMs + CLOCK_SKEW_MS) return { ok: false, reason: "forged" };
      if (nowMs - issuedAt > TOKEN_LIFETIME_MS) return { ok: false, reason: "expired" };
      return { ok: true, nonce, issuedAt };
    },
    clientHash(address) {
      return createHmac("sha256", clientKey).update(address).digest("base64url");
    },
  };
}
