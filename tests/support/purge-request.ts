/** Purge requests as a CMS sends them: a Standard Webhooks signature, or a bearer secret. */
import { createHmac, randomBytes, randomUUID } from "node:crypto";

/** A secret in the Standard Webhooks form. */
export const newPurgeSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

export interface SignedPurge {
  headers: Record<string, string>;
  body: string;
}

/** The headers and body of a purge signed with `secret`; `id` and `timestampS` default to a new id and now. */
export function signedPurge(secret: string, body: unknown, options: { id?: string; timestampS?: number } = {}): SignedPurge {
  const text = JSON.stringify(body);
  const id = options.id ?? `msg_${randomUUID()}`;
  const timestamp = String(options.timestampS ?? Math.floor(Date.now() / 1000));
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${text}`).digest("base64");
  return {
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": timestamp,
      "webhook-signature": `v1,${signature}`,
    },
    body: text,
  };
}
