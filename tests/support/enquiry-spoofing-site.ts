/**
 * The site the enquiry spoofing suites post to: a content API on the fixture site, the built
 * renderer and a real SMTP receiver on loopback, started once for the calling file; each
 * `start()` is an app on a database of its own, closed after the test. `smtp` is a live binding.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { startContentApi } from "../../server/content/api.ts";
import { openContentDb } from "../../server/content/db.ts";
import { importSite } from "../../server/content/site-io.ts";
import { createFormKeys } from "../../server/enquiries/form-keys.ts";
import { createProdRenderer } from "../../server/render/prod-renderer.ts";
import type { Lang } from "../../shared/page-state.ts";
import { testConfig } from "./config.ts";
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from "./enquiry-receivers.ts";
import { buildFixtureSite } from "./fixture-site.ts";

export const FORM_SECRET = "a-spoofing-test-form-secret-012345";
export const PUBLIC_ORIGIN = "https://www.example.com";
const keys = createFormKeys(FORM_SECRET);
const token = (lang: Lang = "zh-CN") => keys.issue(Date.now() - 10_000, { lang, site: PUBLIC_ORIGIN });

export const valid = (lang: Lang = "zh-CN") => ({
  name: "Li Lei",
  email: "li.lei@example.com",
  subject: "Robot arm R1",
  message: "Please send a quote.",
  consent: "on",
  token: token(lang),
  website: "",
});
export const form = (values: Record<string, string>) => new URLSearchParams(values).toString();

let dir: string;
let api: Awaited<ReturnType<typeof startContentApi>>;
let content: Awaited<ReturnType<typeof openContentDb>>;
let renderer: Awaited<ReturnType<typeof createProdRenderer>>;
export let smtp: SmtpReceiver;
const apps: PortalApp[] = [];
let databases = 0;

export const start = () => {
  const app = createApp(
    testConfig({
      DATABASE_URL: `sqlite:${path.join(dir, `portal-${++databases}.db`)}`,
      FORM_SECRET,
      PUBLIC_ORIGIN,
      ENQUIRY_RATE_PER_HOUR: "100",
      SMTP_URL: smtp.url,
      ENQUIRY_TO: "sales@example.com",
      ENQUIRY_FROM: "website@example.com",
      PAGE_CACHE: "off",
    }),
    { upstreamUrl: api.url, renderer, enquiryDelivery: { backoffBaseMs: 20, pollMs: 10 } },
  );
  app.portal.enquiries.start();
  apps.push(app);
  return app;
};
export const mailOf = async (id: string) => {
  const ours = (mails: ReceivedMail[]) => mails.filter((m) => m.accepted && m.headers["message-id"] === `<${id}@example.com>`);
  await smtp.waitFor((mails) => ours(mails).length > 0);
  return ours(smtp.mails)[0] as ReceivedMail;
};
export const sentMail = async (app: PortalApp, fields: Record<string, string>) => {
  await request(app).post("/api/portal/enquiry").send(fields).expect(202);
  return mailOf((await app.portal.enquiries.store.list()).at(-1)?.id ?? "");
};

/** Starts the content API, renderer and SMTP receiver before the calling file's tests, closing each test's apps after it. */
export function spoofingSiteForTheFile(): void {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-enquiry-spoof-"));
    content = await openContentDb("sqlite::memory:");
    await importSite(content, buildFixtureSite());
    api = await startContentApi(content);
    renderer = await createProdRenderer();
    smtp = await startSmtpReceiver();
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.portal.close()));
  });
  afterAll(async () => {
    await Promise.all([smtp.close(), api.close()]);
    await content.close();
    await rm(dir, { recursive: true, force: true });
  });
}
