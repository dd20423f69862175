/**
 * The two channels an enquiry is delivered by: a JSON POST signed as Standard Webhooks sign,
 * and a plain-text mail through SMTP (docs/behaviour.md#enquiries, "Delivery").
 */
import { createHmac } from "node:crypto";
import type { Transporter } from "nodemailer";
import type { EnquiryConfig, PurgeSecret } from "../config.ts";
import { mailOf } from "./mail-message.ts";
import type { Channel, Enquiry } from "./store.ts";

export const WEBHOOK_TIMEOUT_MS = 10_000;

function webhookBody(enquiry: Enquiry): string {
  return JSON.stringify({
    type: "enquiry.created",
    timestamp: new Date(enquiry.created_at).toISOString(),
    data: {
      id: enquiry.id,
      createdAt: new Date(enquiry.created_at).toISOString(),
      lang: enquiry.lang,
      name: enquiry.name,
      email: enquiry.email,
      phone: enquiry.phone,
      company: enquiry.company,
      subject: enquiry.subject,
      message: enquiry.message,
      consent: { at: new Date(enquiry.consent_at).toISOString(), version: enquiry.consent_version },
    },
  });
}

function webhookHeaders(id: string, body: string, secrets: readonly PurgeSecret[], nowMs: number): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const signatures = secrets.map(
    (secret) => `v1,${createHmac("sha256", secret.key).update(`${id}.${timestamp}.${body}`).digest("base64")}`,
  );
  return { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signatures.join(" ") };
}

/** Each resolves once its receiver took the enquiry, and throws why not. */
export type Channels = Record<Channel, (enquiry: Enquiry) => Promise<void>>;

export function createChannels(config: EnquiryConfig, { now = Date.now, webhookTimeoutMs = WEBHOOK_TIMEOUT_MS } = {}): Channels {
  let transporter: Promise<Transporter> | undefined;
  const mailer = () => {
    transporter ??= import("nodemailer").then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: config.mail?.smtpUrl ?? "",
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      }),
    );
    return transporter;
  };

  async function sendWebhook(enquiry: Enquiry): Promise<void> {
    const webhook = config.webhook;
    if (!webhook) throw new Error("no webhook configured");
    const body = webhookBody(enquiry);
    const response = await fetch(webhook.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...webhookHeaders(enquiry.id, body, webhook.secrets, now()) },
      body,
      redirect: "error",
      signal: AbortSignal.timeout(webhookTimeoutMs),
    });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`webhook answered ${response.status}`);
  }

  async function sendMail(enquiry: Enquiry): Promise<void> {
    const mail = config.mail;
    if (!mail) throw new Error("no mail configured");
    await (await mailer()).sendMail(mailOf(enquiry, mail));
  }

  return { webhook: sendWebhook, mail: sendMail };
}
