/**
 * The outbox under slow receivers: two delivery loops on one database (as two instances
 * or two workers run them), a webhook receiver and an SMTP server that answer only after
 * the lease each enquiry was claimed under has run out several times over, and twelve
 * enquiries: each mail and each webhook arrives exactly once. And a webhook that hangs
 * holds up no mail, neither its own enquiry's nor another's.
 */
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { createDeliverer, type Deliverer } from "../../server/enquiries/delivery.ts";
import { createEnquiryStore, type EnquiryStore } from "../../server/enquiries/store.ts";
import { createLogger } from "../../server/logger.ts";
import { testConfig } from "../support/config.ts";
import { describeEachDatabase } from "../support/databases.ts";
import {
  type SmtpReceiver,
  startSmtpReceiver,
  startWebhookReceiver,
  WEBHOOK_SECRET_TEXT,
  type WebhookReceiver,
} from "../support/enquiry-receivers.ts";

const ENQUIRIES = 12;
/** Short, so a receiver can outlast it many times over without the test taking minutes; long enough that a busy machine still renews it in time. */
const LEASE_MS = 2500;

const config = (webhook: WebhookReceiver, smtp: SmtpReceiver) =>
  testConfig({
    ENQUIRY_WEBHOOK_URL: webhook.url,
    ENQUIRY_WEBHOOK_SECRET: WEBHOOK_SECRET_TEXT,
    SMTP_URL: smtp.url,
    ENQUIRY_TO: "sales@example.com",
    ENQUIRY_FROM: "website@example.com",
  }).enquiries;

const row = (i: number, at: number) => ({
  created_at: at,
  lang: "en",
  name: `Visitor ${i}`,
  email: `visitor${i}@example.com`,
  phone: "",
  company: "",
  subject: `Question ${i}`,
  message: "Please call me back.",
  consent_at: at,
  consent_version: "1",
  client_hash: "hash",
  webhook_state: "pending" as const,
  mail_state: "pending" as const,
  next_attempt_at: at,
});

/** Counts each loop's searches for work, and tells waiters of each; `end` lets every waiter go. */
function passes() {
  const count = [0, 0];
  const listeners: (() => void)[] = [];
  let ended = false;
  const wake = () => {
    for (const listener of listeners.splice(0)) listener();
  };
  return {
    seen(loop: number) {
      count[loop] = (count[loop] ?? 0) + 1;
      wake();
    },
    /** Resolves once each loop has looked `n` more times than now. */
    async more(n: number): Promise<void> {
      const target = count.map((c) => c + n);
      while (!ended && count.some((c, i) => c < (target[i] ?? 0))) await new Promise<void>((resolve) => listeners.push(resolve));
    },
    end() {
      ended = true;
      wake();
    },
  };
}

let testOver = false;

/** Resolves once `holds` is true, or the test is over. */
async function until(holds: () => boolean): Promise<void> {
  while (!testOver && !holds()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describeEachDatabase("enquiry outbox", (databases) => {
  let webhook: WebhookReceiver;
  let smtp: SmtpReceiver;
  const stores: EnquiryStore[] = [];
  const loops: Deliverer[] = [];
  /** Lets every held answer go, so the loops can stop. */
  const teardown: (() => void)[] = [];

  beforeAll(async () => {
    testOver = false;
    [webhook, smtp] = await Promise.all([startWebhookReceiver(), startSmtpReceiver()]);
  });
  afterEach(async () => {
    testOver = true;
    for (const release of teardown.splice(0)) release();
    await Promise.all(loops.splice(0).map((loop) => loop.stop()));
    await Promise.all(stores.splice(0).map((store) => store.close()));
    webhook.hold = undefined;
    smtp.hold = undefined;
  });
  afterAll(async () => {
    await Promise.all([webhook.close(), smtp.close()]);
    await databases.dispose();
  });

  /** Two loops on one new database, with the enquiries in it; `looked` counts each loop's searches for work. */
  async function twoLoops(): Promise<{ ids: string[]; looked: ReturnType<typeof passes> }> {
    const databaseUrl = await databases.create();
    testOver = false;
    const looked = passes();
    teardown.push(looked.end);
    const settings = config(webhook, smtp);
    const logger = createLogger("silent");
    const events = { delivered() {}, retried() {}, failed() {} };
    for (const loop of [0, 1]) {
      const store = createEnquiryStore(databaseUrl);
      stores.push(store);
      const watched: EnquiryStore = {
        ...store,
        claimDue: async (...args) => {
          const claimed = await store.claimDue(...args);
          looked.seen(loop);
          return claimed;
        },
      };
      const timing = { leaseMs: LEASE_MS, webhookTimeoutMs: 120_000, pollMs: 5, backoffBaseMs: 20 };
      loops.push(createDeliverer({ store: watched, config: settings, logger, events, ...timing }));
    }
    const at = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < ENQUIRIES; i++) {
      const saved = await (stores[0] as EnquiryStore).save(row(i, at), `nonce-${i}-${at}`, at + 3600_000);
      if (saved !== "replayed") ids.push(saved.saved.id);
    }
    return { ids, looked };
  }

  const hooksOf = (id: string) => webhook.calls.filter((call) => call.id === id);
  const mailsOf = (id: string) => smtp.mails.filter((mail) => mail.headers["message-id"] === `<${id}@example.com>`);

  /** Resolves once every enquiry is written delivered by both channels; rejects as soon as anything arrives twice. */
  async function deliveredAll(ids: string[]): Promise<void> {
    const store = stores[0] as EnquiryStore;
    const twice = (seen: string[]) => seen.length > new Set(seen).size;
    const repeated = Promise.race([
      webhook.waitFor((calls) => twice(calls.map((call) => call.id))),
      smtp.waitFor((mails) => twice(mails.map((mail) => mail.headers["message-id"] ?? ""))),
    ]).then(() => {
      throw new Error("an enquiry arrived twice");
    });
    // Settled or not by the end, it must not outlive the test as an unhandled rejection.
    repeated.catch(() => {});
    const done = async () => (await store.list()).filter((r) => r.webhook_state === "delivered" && r.mail_state === "delivered").length;
    const all = (async () => {
      while ((await done()) < ids.length) await new Promise((resolve) => setTimeout(resolve, 20));
    })();
    await Promise.race([all, repeated]);
  }

  it("sends each mail and each webhook once when the receivers answer long after the lease", { timeout: 120_000 }, async () => {
    const { ids, looked } = await twoLoops();
    // Each answer waits until the lease it was sent under is three leases gone, then for both loops to look for
    // work twice more (or two leases more, when a loop is busy sending and cannot look).
    const slow = async () => {
      const sent = Date.now();
      await until(() => Date.now() > sent + 3 * LEASE_MS);
      await Promise.race([looked.more(2), until(() => Date.now() > sent + 5 * LEASE_MS)]);
    };
    webhook.hold = slow;
    smtp.hold = slow;
    for (const loop of loops) loop.start();
    await deliveredAll(ids);
    // Stopped, they send nothing more: what arrived is all that ever will.
    await Promise.all(loops.map((loop) => loop.stop()));
    for (const id of ids) {
      expect(hooksOf(id), `webhooks of ${id}`).toHaveLength(1);
      expect(mailsOf(id), `mails of ${id}`).toHaveLength(1);
    }
  });

  it("delivers every mail while every webhook hangs, then each webhook once", { timeout: 120_000 }, async () => {
    const { ids } = await twoLoops();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    teardown.push(release);
    webhook.hold = () => released;
    for (const loop of loops) loop.start();
    await smtp.waitFor((mails) =>
      ids.every((id) => mails.some((mail) => mail.accepted && mail.headers["message-id"] === `<${id}@example.com>`)),
    );
    // Every mail is in, and every webhook has been sent, while no webhook has had its answer.
    await webhook.waitFor((calls) => ids.every((id) => calls.some((call) => call.id === id)));
    release();
    await deliveredAll(ids);
    await Promise.all(loops.map((loop) => loop.stop()));
    for (const id of ids) {
      expect(hooksOf(id), `webhooks of ${id}`).toHaveLength(1);
      expect(mailsOf(id), `mails of ${id}`).toHaveLength(1);
    }
  });
});
