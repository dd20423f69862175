/**
 * Delivery that survives what production does to it: the built server killed (SIGKILL)
 * after storing an enquiry and failing to deliver it, then started again once the
 * receivers are back; and two instances on one PostgreSQL database, each enquiry
 * delivered by one of them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { createFormKeys } from "../../server/enquiries/form-keys.ts";
import { createEnquiryStore } from "../../server/enquiries/store.ts";
import { testConfig } from "../support/config.ts";
import { postgresDatabases } from "../support/databases.ts";
import {
  type SmtpReceiver,
  startSmtpReceiver,
  startWebhookReceiver,
  WEBHOOK_SECRET_TEXT,
  type WebhookReceiver,
} from "../support/enquiry-receivers.ts";
import { exitOf, type ServerProcess, startServerProcess } from "../support/server-process.ts";

const FORM_SECRET = "delivery-test-form-secret-0123456789";
const keys = createFormKeys(FORM_SECRET);
/** Where the site says it is: tokens are bound to it. */
const PUBLIC_ORIGIN = "https://www.example.com";

const enquiry = (message: string) => ({
  name: "Han Meimei",
  email: "han@example.com",
  subject: "Service S2",
  message,
  consent: true,
  token: keys.issue(Date.now() - 10_000, { lang: "zh-CN", site: PUBLIC_ORIGIN }),
  website: "",
});

let webhook: WebhookReceiver;
let smtp: SmtpReceiver;

beforeAll(async () => {
  [webhook, smtp] = await Promise.all([startWebhookReceiver(), startSmtpReceiver()]);
});
afterAll(async () => {
  await Promise.all([webhook.close(), smtp.close()]);
});

const deliveryEnv = () => ({
  FORM_SECRET,
  PUBLIC_ORIGIN,
  ENQUIRY_WEBHOOK_URL: webhook.url,
  ENQUIRY_WEBHOOK_SECRET: WEBHOOK_SECRET_TEXT,
  SMTP_URL: smtp.url,
  ENQUIRY_TO: "sales@example.com",
  ENQUIRY_FROM: "website@example.com",
});

const arrived = (id: string) =>
  Promise.all([
    webhook.waitFor((calls) => calls.some((c) => c.accepted && c.id === id)),
    smtp.waitFor((mails) => mails.some((m) => m.accepted && m.headers["message-id"] === `<${id}@example.com>`)),
  ]);

/** Resolves once the process has written a log line with `msg` (as it writes it). */
function logged(site: ServerProcess, msg: string): Promise<void> {
  const seen = () => site.logs.some((line) => line.includes(`"msg":"${msg}`));
  if (seen()) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => {
      if (!seen()) return;
      site.child.stdout?.off("data", check);
      resolve();
    };
    site.child.stdout?.on("data", check);
  });
}

describe("enquiry delivery across a crash", () => {
  it("delivers once by each channel after the server is killed between storing and delivering", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "portal-enquiry-"));
    const databaseUrl = `sqlite:${path.join(dir, "portal.db")}`;
    const env = { ...deliveryEnv(), DATABASE_URL: databaseUrl, IMAGE_CACHE_DIR: path.join(dir, "images") };
    webhook.up = false;
    smtp.up = false;
    let site = await startServerProcess(env, { built: true });
    try {
      const answer = await fetch(`${site.origin}/api/portal/enquiry`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(enquiry("sent before the crash")),
      });
      expect(answer.status).toBe(202);
      // Stored, tried once, failed: the retry is in the database only.
      await logged(site, "enquiry delivery failed: will retry");
      site.child.kill("SIGKILL");
      await exitOf(site.child);
      const store = createEnquiryStore(databaseUrl);
      const [row] = await store.list();
      await store.close();
      expect(row).toMatchObject({ webhook_state: "pending", mail_state: "pending", attempts: 1 });
      const id = row?.id ?? "";

      webhook.up = true;
      smtp.up = true;
      site = await startServerProcess(env, { built: true });
      await arrived(id);
      const hooks = webhook.calls.filter((c) => c.id === id);
      expect(hooks.length).toBeGreaterThanOrEqual(2);
      expect(hooks.every((c) => c.signed && c.body.data.id === id)).toBe(true);
      expect(hooks.filter((c) => c.accepted)).toHaveLength(1);
      expect(smtp.accepted().filter((m) => m.headers["message-id"] === `<${id}@example.com>`)).toHaveLength(1);
    } finally {
      await site.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!pgUrl)("two instances on one PostgreSQL database", () => {
  const databases = postgresDatabases(pgUrl ?? "", "enquiry_instances");
  const apps: PortalApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.portal.close()));
    await databases.dispose();
  });

  it("deliver each enquiry once", async () => {
    const databaseUrl = await databases.create();
    for (let i = 0; i < 2; i++) {
      const app = createApp(testConfig({ ...deliveryEnv(), DATABASE_URL: databaseUrl, ENQUIRY_RATE_PER_HOUR: "100" }), {
        upstreamUrl: "http://127.0.0.1:9",
        enquiryDelivery: { backoffBaseMs: 20, pollMs: 5 },
      });
      app.portal.enquiries.start();
      apps.push(app);
    }
    const [one, two] = apps as [PortalApp, PortalApp];
    // Both see every one of them: one through its own kick, the other through its polling.
    for (let i = 0; i < 20; i++)
      await request(i % 2 ? one : two)
        .post("/api/portal/enquiry")
        .send(enquiry(`parallel ${i}`))
        .expect(202);
    const ids = (await one.portal.enquiries.store.list()).map((row) => row.id);
    expect(ids).toHaveLength(20);
    await Promise.all(ids.map(arrived));
    for (const id of ids) {
      expect(webhook.calls.filter((c) => c.id === id)).toHaveLength(1);
      expect(smtp.mails.filter((m) => m.headers["message-id"] === `<${id}@example.com>`)).toHaveLength(1);
    }
  });
});
