/** The form token and the client-address hash, both keyed by FORM_SECRET (docs/behaviour.md#enquiries, "Spam"). */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Lang } from "../../shared/page-state.ts";

export const TOKEN_LIFETIME_MS = 24 * 3600_000;
export const MIN_FILL_MS = 3000;
/** Clocks of instances may differ this much: a token "issued" further ahead is forged. */
const CLOCK_SKEW_MS = 60_000;

/**
 * What a token is good for, signed into it but not written in it: the form's language, and the
 * site it was served at (PUBLIC_ORIGIN, or `//` and the host the page was asked of: see form-origin.ts).
 */
export interface TokenBinding {
  lang: Lang;
  site: string;
}

type TokenCheck = { ok: true; nonce: string; issuedAt: number } | { ok: false; reason: "forged" | "expired" };

export interface FormKeys {
  issue(nowMs: number, binding: TokenBinding): string;
  check(token: string, nowMs: number, binding: TokenBinding): TokenCheck;
  clientHash(address: string): string;
}

export function createFormKeys(secret: string | undefined): FormKeys {
  const master = secret ?? randomBytes(32).toString("base64url");
  // One key per use, so a token's signature can never be passed off as an address hash.
  const tokenKey = createHmac("sha256", master).update("enquiry-token").digest();
  const clientKey = createHmac("sha256", master).update("client-address").digest();
  // Line breaks cannot occur in a language or a site, so no two bindings sign alike.
  const sign = (body: string, { lang, site }: TokenBinding) =>
    createHmac("sha256", tokenKey).update(`${body}\n${lang}\n${site}`).digest("base64url");
  return {
    issue(nowMs, binding) {
      const body = `v2.${Math.floor(nowMs).toString(36)}.${randomBytes(16).toString("base64url")}`;
      return `${body}.${sign(body, binding)}`;
    },
    check(token, nowMs, binding) {
      const match = /^(v2\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{22}))\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return { ok: false, reason: "forged" };
      const [, body, time, nonce, signature] = match as unknown as [string, string, string, string, string];
      const expected = Buffer.from(sign(body, binding));
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
