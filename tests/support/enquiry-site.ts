/**
 * The site the contact form suites post to, once per database: a content API on the fixture
 * site, the built renderer, a real webhook receiver and a real SMTP server on loopback. Each
 * `start()` is an app on that database, closed after the test; the receivers are up again
 * after every test.
 */
import { afterAll, afterEach, beforeAll } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { startContentApi } from "../../server/content/api.ts";
import { openContentDb } from "../../server/content/db.ts";
import { importSite } from "../../server/content/site-io.ts";
import { createFormKeys } from "../../server/enquiries/form-keys.ts";
import { createProdRenderer } from "../../server/render/prod-renderer.ts";
import type { Lang } from "../../shared/page-state.ts";
import { testConfig } from "./config.ts";
import type { TestDatabases } from "./databases.ts";
import {
  type SmtpReceiver,
  startSmtpReceiver,
  startWebhookReceiver,
  WEBHOOK_SECRET_TEXT,
  type WebhookReceiver,
} from "./enquiry-receivers.ts";
import { buildFixtureSite } from "./fixture-site.ts";

export const FORM_SECRET = "a-test-form-secret-of-enough-length";
export const keys = createFormKeys(FORM_SECRET);
/** Where the site says it is: tokens are bound to it. */
export const PUBLIC_ORIGIN = "https://www.example.com";
/** A token served 10 seconds ago: past the 3-second minimum without waiting for it. */
export const token = (ageMs = 10_000, lang: Lang = "zh-CN") => keys.issue(Date.now() - ageMs, { lang, site: PUBLIC_ORIGIN });

export const valid = () => ({
  name: "Li Lei",
  email: "li.lei@example.com",
  phone: "",
  company: "Example Ltd",
  subject: "Robot arm R1",
  message: "Please send a quote.",
  consent: "on",
  token: token(),
  website: "",
});

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** Registers the site's hooks in the calling suite; the receivers are read through it once they have started. */
export function enquirySiteOn(databases: TestDatabases) {
  let databaseUrl: string;
  let api: Awaited<ReturnType<typeof startContentApi>>;
  let content: Awaited<ReturnType<typeof openContentDb>>;
  let webhook: WebhookReceiver;
  let smtp: SmtpReceiver;
  let renderer: Awaited<ReturnType<typeof createProdRenderer>>;
  const apps: PortalApp[] = [];

  const start = (env: Record<string, string> = {}, deps: Parameters<typeof createApp>[1] = {}) => {
    const app = createApp(
      testConfig({
        DATABASE_URL: databaseUrl,
        FORM_SECRET,
        PUBLIC_ORIGIN,
        TRUST_PROXY: "loopback",
        ENQUIRY_WEBHOOK_URL: webhook.url,
        ENQUIRY_WEBHOOK_SECRET: WEBHOOK_SECRET_TEXT,
        SMTP_URL: smtp.url,
        ENQUIRY_TO: "sales@example.com",
        ENQUIRY_FROM: "website@example.com",
        PAGE_CACHE: "off",
        ...env,
      }),
      { upstreamUrl: api.url, renderer, enquiryDelivery: { backoffBaseMs: 20, pollMs: 10 }, ...deps },
    );
    app.portal.enquiries.start();
    apps.push(app);
    return app;
  };

  beforeAll(async () => {
    databaseUrl = await databases.create();
    content = await openContentDb(databaseUrl);
    await importSite(content, buildFixtureSite());
    api = await startContentApi(content);
    renderer = await createProdRenderer();
    [webhook, smtp] = await Promise.all([startWebhookReceiver(), startSmtpReceiver()]);
  });

  afterEach(async () => {
    webhook.up = true;
    smtp.up = true;
    await Promise.all(apps.splice(0).map((app) => app.portal.close()));
  });

  afterAll(async () => {
    await Promise.all([webhook.close(), smtp.close(), api.close()]);
    await content.close();
    await databases.dispose();
  });

  /** Waits until the enquiry `id` has reached both receivers (accepted), then returns what each got. */
  const delivered = async (id: string) => {
    await webhook.waitFor((calls) => calls.some((c) => c.accepted && c.id === id));
    await smtp.waitFor((mails) => mails.some((m) => m.accepted && m.headers["message-id"] === `<${id}@example.com>`));
    return {
      hooks: webhook.calls.filter((c) => c.id === id),
      mails: smtp.mails.filter((m) => m.headers["message-id"] === `<${id}@example.com>`),
    };
  };

  const newest = async (app: PortalApp) => (await app.portal.enquiries.store.list()).at(-1);

  return {
    start,
    delivered,
    newest,
    get webhook() {
      return webhook;
    },
    get smtp() {
      return smtp;
    },
  };
}
