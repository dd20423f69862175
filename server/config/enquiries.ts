/** The enquiry form: its signing secret, limits, retention, and where enquiries are delivered. */

import { z } from "zod";
import { needs } from "./config-error.ts";
import { type PurgeSecret, purgeSecrets } from "./secrets.ts";
import { integer, postUrl } from "./value-kinds.ts";

/** The form secret a cluster's primary makes for its workers when FORM_SECRET is unset (one instance's alone). */
export const WORKERS_FORM_SECRET = "PORTAL_WORKERS_FORM_SECRET";

const smtpUrl = z
  .string()
  .trim()
  .refine((raw) => {
    try {
      const url = new URL(raw);
      return (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example.com:465");

/** An address alone: nothing a header could be built from. */
const MAILBOX = /^[^\s@<>()",;:]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
const mailbox = z.string().trim().regex(MAILBOX, "must be an email address such as website@example.com");
const mailboxes = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    const list = raw
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    if (list.length === 0 || !list.every((address) => MAILBOX.test(address))) {
      ctx.addIssue({ code: "custom", message: "must be email addresses joined by commas, such as sales@example.com" });
      return z.NEVER;
    }
    return list;
  });

export const enquiriesEnv = z.object({
  FORM_SECRET: z.string().trim().min(16, "must be at least 16 characters of random text").optional(),
  ENQUIRY_RATE_PER_HOUR: integer(1, 10_000, "a whole number from 1 to 10000").default(5),
  ENQUIRY_RETENTION_DAYS: integer(1, 36_500, "a whole number of days from 1 to 36500").default(180),
  ENQUIRY_WEBHOOK_URL: postUrl.optional(),
  ENQUIRY_WEBHOOK_SECRET: purgeSecrets.optional(),
  SMTP_URL: smtpUrl.optional(),
  ENQUIRY_TO: mailboxes.optional(),
  ENQUIRY_FROM: mailbox.optional(),
});

export interface EnquiryConfig {
  /** Undefined: a random one per start. */
  formSecret?: string;
  /** FORM_SECRET was set, so every instance has the same one (not one its primary made for its workers). */
  instancesShareFormSecret: boolean;
  ratePerHour: number;
  retentionDays: number;
  webhook?: { url: string; secrets: PurgeSecret[] };
  mail?: { smtpUrl: string; to: string[]; from: string };
}

/** `env` is the raw environment, for the secret a cluster's primary handed its workers. */
export function enquiriesSettings(e: z.output<typeof enquiriesEnv>, env: Record<string, string | undefined>): EnquiryConfig {
  if (e.ENQUIRY_WEBHOOK_URL && !e.ENQUIRY_WEBHOOK_SECRET) needs("ENQUIRY_WEBHOOK_URL", "ENQUIRY_WEBHOOK_SECRET");
  if (e.SMTP_URL && !e.ENQUIRY_TO) needs("SMTP_URL", "ENQUIRY_TO");
  if (e.SMTP_URL && !e.ENQUIRY_FROM) needs("SMTP_URL", "ENQUIRY_FROM");
  return {
    formSecret: e.FORM_SECRET ?? env[WORKERS_FORM_SECRET],
    instancesShareFormSecret: e.FORM_SECRET !== undefined,
    ratePerHour: e.ENQUIRY_RATE_PER_HOUR,
    retentionDays: e.ENQUIRY_RETENTION_DAYS,
    webhook:
      e.ENQUIRY_WEBHOOK_URL && e.ENQUIRY_WEBHOOK_SECRET ? { url: e.ENQUIRY_WEBHOOK_URL, secrets: e.ENQUIRY_WEBHOOK_SECRET } : undefined,
    mail: e.SMTP_URL && e.ENQUIRY_TO && e.ENQUIRY_FROM ? { smtpUrl: e.SMTP_URL, to: e.ENQUIRY_TO, from: e.ENQUIRY_FROM } : undefined,
  };
}
