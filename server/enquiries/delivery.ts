/**
 * The outbox: every instance leases the enquiries due and sends each channel still pending,
 * retrying from the state in the database (docs/behaviour.md#enquiries, "Delivery").
 */
import { createHmac } from "node:crypto";
import type { Transporter } from "nodemailer";
import { type EnquiryConfig, type PurgeSecret, withoutCredentials } from "../config.ts";
import type { ChannelState } from "../content/schema.ts";
import type { Logger } from "../logger.ts";
import { mailOf } from "./mail-message.ts";
import type { Channel, Enquiry, EnquiryStore } from "./store.ts";

const DELIVERY_HORIZON_MS = 24 * 3600_000;
const BACKOFF_BASE_MS = 5000;
const BACKOFF_MAX_MS = 3600_000;
const POLL_MS = 2000;
/** Longer than an attempt can take (both channels' timeouts). */
const LEASE_MS = 120_000;
const WEBHOOK_TIMEOUT_MS = 10_000;
const BATCH = 10;

export interface DeliveryEvents {
  delivered(channel: Channel, latencyMs: number): void;
  retried(): void;
  failed(channel: Channel): void;
}

export interface Deliverer {
  start(): void;
  /** Looks for enquiries due now rather than at the next poll. */
  kick(): void;
  /** Resolves once a pass under way has ended; no pass starts after. */
  stop(): Promise<void>;
}

interface DelivererOptions {
  store: EnquiryStore;
  config: EnquiryConfig;
  logger: Logger;
  events: DeliveryEvents;
  now?: () => number;
  backoffBaseMs?: number;
  pollMs?: number;
}

function backoffMs(attempts: number, baseMs: number, random = Math.random): number {
  const full = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
  return Math.round(full / 2 + random() * (full / 2));
}

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

export function createDeliverer({
  store,
  config,
  logger,
  events,
  now = Date.now,
  backoffBaseMs = BACKOFF_BASE_MS,
  pollMs = POLL_MS,
}: DelivererOptions): Deliverer {
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
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`webhook answered ${response.status}`);
  }

  async function sendMail(enquiry: Enquiry): Promise<void> {
    const mail = config.mail;
    if (!mail) throw new Error("no mail configured");
    await (await mailer()).sendMail(mailOf(enquiry, mail));
  }

  const senders: Record<Channel, (enquiry: Enquiry) => Promise<void>> = { webhook: sendWebhook, mail: sendMail };

  async function deliver(enquiry: Enquiry): Promise<void> {
    const pending = (["webhook", "mail"] as const).filter((channel) => enquiry[`${channel}_state`] === "pending");
    const errors: string[] = [];
    const left: Channel[] = [];
    for (const channel of pending) {
      try {
        await senders[channel](enquiry);
        await store.markChannel(enquiry.id, channel, "delivered");
        events.delivered(channel, now() - enquiry.created_at);
      } catch (error) {
        left.push(channel);
        errors.push(`${channel}: ${withoutCredentials(error instanceof Error ? error.message : String(error))}`);
      }
    }
    const attempts = enquiry.attempts + 1;
    if (left.length === 0) {
      await store.finishAttempt(enquiry.id, { attempts, nextAttemptAt: null, lastError: null });
      return;
    }
    const lastError = errors.join("; ").slice(0, 500);
    const next = now() + backoffMs(attempts, backoffBaseMs);
    if (next - enquiry.created_at > DELIVERY_HORIZON_MS) {
      for (const channel of left) {
        await store.markChannel(enquiry.id, channel, "failed" satisfies ChannelState);
        events.failed(channel);
      }
      await store.finishAttempt(enquiry.id, { attempts, nextAttemptAt: null, lastError });
      logger.error(
        { enquiry: enquiry.id, channels: left, attempts, err: lastError },
        "enquiry not delivered within 24 hours: marked failed",
      );
      return;
    }
    await store.finishAttempt(enquiry.id, { attempts, nextAttemptAt: next, lastError });
    events.retried();
    logger.warn(
      { enquiry: enquiry.id, channels: left, attempts, retryInMs: next - now(), err: lastError },
      "enquiry delivery failed: will retry",
    );
  }

  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let unreachableLogged = false;

  async function pass(): Promise<void> {
    for (;;) {
      const at = now();
      const due = await store.claimDue(at, at + LEASE_MS, BATCH);
      for (const enquiry of due) await deliver(enquiry);
      if (due.length < BATCH || stopped) return;
    }
  }

  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .then(
        () => {
          unreachableLogged = false;
        },
        (error: unknown) => {
          if (!unreachableLogged)
            logger.warn({ err: error instanceof Error ? error.message : String(error) }, "enquiry delivery cannot read the database");
          unreachableLogged = true;
        },
      )
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };
  let timer: NodeJS.Timeout | undefined;

  return {
    start() {
      if (timer || stopped) return;
      timer = setInterval(run, pollMs).unref();
      run();
    },
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
