/** Shared secrets of the `whsec_` form: the purge endpoint's, preview links', the enquiry webhook's signature. */

import { z } from "zod";

/** The text a Bearer token must equal, and the HMAC key its base64 part decodes to. */
export interface PurgeSecret {
  text: string;
  key: Buffer;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Several at once while one is rotated out. */
export const purgeSecrets = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    const secrets: PurgeSecret[] = [];
    for (const text of raw.split(",").map((part) => part.trim())) {
      const base64 = text.startsWith("whsec_") ? text.slice("whsec_".length) : "";
      const key = BASE64.test(base64) ? Buffer.from(base64, "base64") : Buffer.alloc(0);
      if (key.length < 16) {
        ctx.addIssue({
          code: "custom",
          message: "must be whsec_ followed by the base64 of at least 16 random bytes, several joined by commas",
        });
        return z.NEVER;
      }
      secrets.push({ text, key });
    }
    return secrets;
  });
