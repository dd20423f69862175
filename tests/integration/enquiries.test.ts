/**
 * The contact form end to end in one process: the page and its POST, the JSON API, the
 * spam checks, tokens and the hourly limit, on SQLite and PostgreSQL; the database away;
 * the limit across instances on one Redis.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { startContentApi } from "../../server/content/api.ts";
import { openContentDb } from "../../server/content/db.ts";
import { importSite } from "../../server/content/site-io.ts";
import { createFormKeys } from "../../server/enquiries/form-keys.ts";
import { createProdRenderer } from "../../server/render/prod-renderer.ts";
import { testConfig } from "../support/config.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { enquirySiteOn, FORM_SECRET, form, keys, PUBLIC_ORIGIN, token, valid } from "../support/enquiry-site.ts";
import { buildFixtureSite } from "../support/fixture-site.ts";

describeEachDatabase("enquiries", (databases) => {
  const site = enquirySiteOn(databases);
  const { start, delivered, newest } = site;

  it("serves the form with a fresh token, the subject filled in, never cached", async () => {
    const app = start();
    const page = await request(app).get("/portal/contact.html?subject=Robot%20arm%20%3CR1%3E").expect(200);
    expect(page.headers["cache-control"]).toBe("no-store");
    for (const name of ["name", "email", "phone", "company", "subject", "message", "consent", "token", "website"]) {
      expect(page.text).toContain(`name="${name}"`);
    }
    expect(page.text).toContain('value="Robot arm &lt;R1&gt;"');
    const served = /name="token" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
    expect(keys.check(served, Date.now(), { lang: "zh-CN", site: PUBLIC_ORIGIN }).ok).toBe(true);
    const again = await request(app).get("/portal/contact.html").expect(200);
    expect(/name="token" value="([^"]+)"/.exec(again.text)?.[1]).not.toBe(served);
  });

  it("stores a posted form, answers 303 to the thank-you, and delivers it once by each channel", async () => {
    const app = start();
    const sent = await request(app).post("/portal/contact.html").type("form").send(form(valid())).expect(303);
    expect(sent.headers.location).toBe("/portal/contact.html?sent=1");
    const stored = await newest(app);
    expect(stored).toMatchObject({ name: "Li Lei", consent_version: expect.any(String) });
    expect(stored?.client_hash).not.toContain("127.0.0.1");
    const { hooks, mails } = await delivered(stored?.id ?? "");
    expect(hooks.filter((h) => h.accepted)).toHaveLength(1);
    expect(hooks[0]?.signed).toBe(true);
    expect(hooks[0]?.body.data).toMatchObject({ id: stored?.id, name: "Li Lei", subject: "Robot arm R1", message: "Please send a quote." });
    expect(mails.filter((m) => m.accepted)).toHaveLength(1);
    expect(mails[0]?.headers["reply-to"]).toBe("Li Lei <li.lei@example.com>");
    expect(mails[0]?.to).toEqual(["sales@example.com"]);
    expect(mails[0]?.headers.subject).toBe("[Enquiry] Robot arm R1");
    const thanks = await request(app).get(String(sent.headers.location)).expect(200);
    expect(thanks.text).toContain("enquiry-sent");
  });

  it("serves and takes the form at its English address, answering in English there", async () => {
    const app = start();
    const page = await request(app).get("/portal/en/contact.html").expect(200);
    expect(page.text).toContain('<html lang="en"');
    expect(page.text).toContain('action="/portal/en/contact.html"');
    const english = () => ({ ...valid(), token: token(10_000, "en") });
    const sent = await request(app).post("/portal/en/contact.html").type("form").send(form(english())).expect(303);
    expect(sent.headers.location).toBe("/portal/en/contact.html?sent=1");
    expect(await newest(app)).toMatchObject({ lang: "en" });
    const mistake = await request(app)
      .post("/portal/en/contact.html")
      .type("form")
      .send(form({ ...english(), name: "" }))
      .expect(400);
    expect(mistake.text).toContain('<html lang="en"');
    expect(mistake.text).toContain('aria-invalid="true"');
  });

  it("answers the JSON API with 202, and 400 with each field's mistake", async () => {
    const app = start();
    await request(app).post("/api/portal/enquiry").send(valid()).expect(202);
    const refused = await request(app)
      .post("/api/portal/enquiry")
      .send({ ...valid(), name: "", email: "not-an-address", consent: false })
      .expect(400);
    expect(refused.body.data.errors).toEqual({ name: "required", email: "email", consent: "consent" });
  });

  it("gives the form back on a mistake: 400, every value kept and escaped, a summary, each field's error tied to it", async () => {
    const app = start();
    const fields = { ...valid(), name: "", email: "nobody", company: '<script>alert("x")</script>', consent: "" };
    const page = await request(app).post("/portal/contact.html").type("form").send(form(fields)).expect(400);
    expect(page.text).toContain("enquiry-summary");
    expect(page.text).toContain('href="#enquiry-name"');
    expect(page.text).toMatch(/id="enquiry-name"[^>]*aria-invalid="true"[^>]*aria-describedby="enquiry-name-error"/);
    expect(page.text).toMatch(/id="enquiry-email"[^>]*aria-invalid="true"[^>]*value="nobody"/);
    expect(page.text).toContain('value="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"');
    expect(page.text).not.toContain('<script>alert("x")');
    expect(page.text).toContain("Please send a quote.");
    expect((await app.portal.enquiries.store.list()).some((row) => row.company === fields.company)).toBe(false);
  });

  it("tells a bot that fills the honeypot or posts within 3 seconds it was accepted, and delivers nothing of it", async () => {
    const app = start();
    const before = (await app.portal.enquiries.store.list()).length;
    const trap = await request(app)
      .post("/portal/contact.html")
      .type("form")
      .send(form({ ...valid(), website: "http://spam.example", message: "BOT honeypot" }))
      .expect(303);
    const fast = await request(app)
      .post("/portal/contact.html")
      .type("form")
      .send(form({ ...valid(), token: token(500), message: "BOT fast" }))
      .expect(303);
    expect(trap.headers.location).toBe("/portal/contact.html?sent=1");
    expect(fast.headers.location).toBe("/portal/contact.html?sent=1");
    await request(app)
      .post("/api/portal/enquiry")
      .send({ ...valid(), website: "x", message: "BOT api" })
      .expect(202);
    // A real one after them: once it has arrived, anything the bots had sent would have too.
    await request(app)
      .post("/api/portal/enquiry")
      .send({ ...valid(), message: "human after bots" })
      .expect(202);
    const human = await newest(app);
    await delivered(human?.id ?? "");
    expect(await app.portal.enquiries.store.list()).toHaveLength(before + 1);
    const everything = [...site.webhook.calls.map((c) => JSON.stringify(c.body)), ...site.smtp.mails.map((m) => m.raw)].join("\n");
    expect(everything).not.toContain("BOT");
    const metrics = await app.portal.metrics.registry.metrics();
    expect(metrics).toMatch(/portal_enquiries_refused_total\{reason="honeypot"\} 2/);
    expect(metrics).toMatch(/portal_enquiries_refused_total\{reason="too_fast"\} 1/);
  });

  it("tells a visitor who sends the form empty at once what is missing, not that it was received", async () => {
    const app = start();
    const before = (await app.portal.enquiries.store.list()).length;
    const empty = { name: "", email: "", phone: "", company: "", subject: "", message: "", token: token(200), website: "" };
    const page = await request(app).post("/portal/contact.html").type("form").send(form(empty)).expect(400);
    expect(page.text).toContain("enquiry-summary");
    expect(page.text).toContain('aria-invalid="true"');
    const api = await request(app).post("/api/portal/enquiry").send(empty).expect(400);
    expect(Object.keys(api.body.data.errors)).toEqual(expect.arrayContaining(["name", "message", "consent"]));
    expect(await app.portal.enquiries.store.list()).toHaveLength(before);
  });

  it("refuses a token used before, forged or older than 24 hours with 400 and the form again", async () => {
    const app = start();
    const once = valid();
    await request(app).post("/portal/contact.html").type("form").send(form(once)).expect(303);
    const replay = await request(app).post("/portal/contact.html").type("form").send(form(once)).expect(400);
    expect(replay.text).toContain("enquiry-summary");
    expect(replay.text).toContain('value="Li Lei"');
    await request(app).post("/api/portal/enquiry").send(once).expect(400);
    const forged = `${once.token.slice(0, -4)}AAAA`;
    await request(app)
      .post("/api/portal/enquiry")
      .send({ ...valid(), token: forged })
      .expect(400);
    const other = createFormKeys("another-secret-another-secret").issue(Date.now() - 10_000, { lang: "zh-CN", site: PUBLIC_ORIGIN });
    await request(app)
      .post("/api/portal/enquiry")
      .send({ ...valid(), token: other })
      .expect(400);
    await request(app)
      .post("/api/portal/enquiry")
      .send({ ...valid(), token: token(25 * 3600_000) })
      .expect(400);
  });

  it("refuses a client past ENQUIRY_RATE_PER_HOUR with 429", async () => {
    const app = start({ ENQUIRY_RATE_PER_HOUR: "2" });
    await request(app).post("/api/portal/enquiry").send(valid()).expect(202);
    await request(app).post("/portal/contact.html").type("form").send(form(valid())).expect(303);
    const refused = await request(app).post("/api/portal/enquiry").send(valid()).expect(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    const page = await request(app).post("/portal/contact.html").type("form").send(form(valid())).expect(429);
    expect(page.text).toContain('value="Li Lei"');
  });
});

describe("enquiries with the database away", () => {
  it("answers 503 with the form and every value kept, and stores nothing", async () => {
    const renderer = await createProdRenderer();
    const content = await openContentDb("sqlite::memory:");
    await importSite(content, buildFixtureSite());
    const api = await startContentApi(content);
    // A database under a file, not a folder: it cannot be opened.
    const app = createApp(testConfig({ DATABASE_URL: "sqlite:/dev/null/portal.db", FORM_SECRET, PUBLIC_ORIGIN, PAGE_CACHE: "off" }), {
      upstreamUrl: api.url,
      renderer,
    });
    try {
      const page = await request(app)
        .post("/portal/contact.html")
        .type("form")
        .send(form({ ...valid(), message: "kept <as typed>" }))
        .expect(503);
      expect(page.text).toContain('value="Li Lei"');
      expect(page.text).toContain("kept &lt;as typed&gt;");
      expect(page.text).toContain("enquiry-summary");
      await request(app).post("/api/portal/enquiry").send(valid()).expect(503);
    } finally {
      await app.portal.close();
      await api.close();
      await content.close();
    }
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)("the hourly limit across instances", () => {
  it("is one allowance for a client, whichever instance it reaches, with REDIS_URL", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "portal-enquiry-limit-"));
    // Each test run its own site on the shared Redis: its own limit keys.
    const env = {
      DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
      FORM_SECRET,
      PUBLIC_ORIGIN,
      ENQUIRY_RATE_PER_HOUR: "2",
      REDIS_URL: process.env.TEST_REDIS_URL ?? "",
    };
    const apps = [0, 1].map(() => createApp(testConfig(env), { upstreamUrl: "http://127.0.0.1:9" }));
    try {
      await Promise.all(apps.map((app) => app.portal.sharedTier?.connected()));
      const [one, two] = apps as [PortalApp, PortalApp];
      await request(one).post("/api/portal/enquiry").send(valid()).expect(202);
      await request(two).post("/api/portal/enquiry").send(valid()).expect(202);
      await request(one).post("/api/portal/enquiry").send(valid()).expect(429);
      await request(two).post("/api/portal/enquiry").send(valid()).expect(429);
    } finally {
      await Promise.all(apps.map((app) => app.portal.close()));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
