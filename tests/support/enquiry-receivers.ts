/**
 * The receiving ends of enquiry delivery, real and on loopback: an HTTP receiver that
 * checks each webhook's Standard Webhooks signature with the purge endpoint's own code,
 * and an SMTP server (smtp-server). Each can be "down" (503, or SMTP 451) for a while, or
 * slow: `hold` keeps an answer back until the promise it returns settles (what arrived is
 * counted on arrival).
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { PurgeSecret } from "../../server/config.ts";
import { signatureMatches, webhookHeadersOf } from "../../server/purge/purge-auth.ts";

export const WEBHOOK_SECRET_TEXT = `whsec_${Buffer.from("enquiry-receiver-secret-0123456789").toString("base64")}`;
const SECRET: PurgeSecret = { text: WEBHOOK_SECRET_TEXT, key: Buffer.from(WEBHOOK_SECRET_TEXT.slice(6), "base64") };

export interface WebhookCall {
  id: string;
  signed: boolean;
  accepted: boolean;
  body: { type: string; data: Record<string, unknown> & { id: string } };
}

interface Waiting {
  until: () => boolean;
  resolve: () => void;
}

function waiters() {
  const list: Waiting[] = [];
  return {
    check() {
      for (const w of list.splice(0)) {
        if (w.until()) w.resolve();
        else list.push(w);
      }
    },
    wait(until: () => boolean): Promise<void> {
      if (until()) return Promise.resolve();
      return new Promise((resolve) => list.push({ until, resolve }));
    },
  };
}

export interface WebhookReceiver {
  url: string;
  up: boolean;
  hold?: (call: WebhookCall) => Promise<void>;
  calls: WebhookCall[];
  accepted(): WebhookCall[];
  /** Resolves once `until` holds of the calls received (checked at each call). */
  waitFor(until: (calls: WebhookCall[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const waiting = waiters();
  const receiver: WebhookReceiver = {
    url: "",
    up: true,
    calls: [],
    accepted: () => receiver.calls.filter((call) => call.accepted),
    waitFor: (until) => waiting.wait(() => until(receiver.calls)),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = webhookHeadersOf(req.headers, Date.now());
    const signed = headers.ok && signatureMatches(headers.headers, body, [SECRET]);
    const accepted = receiver.up && signed;
    const call = { id: String(req.headers["webhook-id"]), signed, accepted, body: JSON.parse(body.toString()) };
    receiver.calls.push(call);
    waiting.check();
    await receiver.hold?.(call);
    res.writeHead(accepted ? 204 : signed ? 503 : 401).end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/enquiry`;
  return receiver;
}

export interface ReceivedMail {
  accepted: boolean;
  raw: string;
  /** Unfolded headers, names in lower case (the first of each). */
  headers: Record<string, string>;
  to: string[];
}

export interface SmtpReceiver {
  url: string;
  up: boolean;
  hold?: (mail: ReceivedMail) => Promise<void>;
  mails: ReceivedMail[];
  accepted(): ReceivedMail[];
  waitFor(until: (mails: ReceivedMail[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

function headersOf(raw: string): Record<string, string> {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? "";
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).toLowerCase();
    if (colon > 0 && !(name in headers)) headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const waiting = waiters();
  const receiver: SmtpReceiver = {
    url: "",
    up: true,
    mails: [],
    accepted: () => receiver.mails.filter((mail) => mail.accepted),
    waitFor: (until) => waiting.wait(() => until(receiver.mails)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const accepted = receiver.up;
        const mail = { accepted, raw, headers: headersOf(raw), to: session.envelope.rcptTo.map((r) => r.address) };
        receiver.mails.push(mail);
        waiting.check();
        await receiver.hold?.(mail);
        if (accepted) callback();
        else callback(Object.assign(new Error("mailbox busy, try later"), { responseCode: 451 }));
      });
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  receiver.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return receiver;
}
