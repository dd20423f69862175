/**
 * The contact form cannot be used to make its mail lie: addresses that a mail program reads
 * as more than a plain mailbox are refused with the email field's error, a name cannot pose
 * as an address, bidi controls are dropped, and what a real SMTP server on loopback receives
 * keeps the visitor's message apart from the mail's own fields.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp, type PortalApp } from "../../server/app.ts";
import { startContentApi } from "../../server/content/api.ts";
import { openContentDb } from "../../server/content/db.ts";
import { importSite } from "../../server/content/site-io.ts";
import { createFormKeys } from "../../server/enquiries/form-keys.ts";
import { createProdRenderer } from "../../server/render/prod-renderer.ts";
import { CONSENT_VERSION } from "../../shared/enquiry.ts";
import type { Lang } from "../../shared/page-state.ts";
import { testConfig } from "../support/config.ts";
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from "../support/enquiry-receivers.ts";
import { buildFixtureSite } from "../support/fixture-site.ts";

const FORM_SECRET = "a-spoofing-test-form-secret-012345";
const PUBLIC_ORIGIN = "https://www.example.com";
const keys = createFormKeys(FORM_SECRET);
const token = (lang: Lang = "zh-CN") => keys.issue(Date.now() - 10_000, { lang, site: PUBLIC_ORIGIN });

const valid = (lang: Lang = "zh-CN") => ({
  name: "Li Lei",
  email: "li.lei@example.com",
  subject: "Robot arm R1",
  message: "Please send a quote.",
  consent: "on",
  token: token(lang),
  website: "",
});
const form = (values: Record<string, string>) => new URLSearchParams(values).toString();

/** The findings' addresses: each was taken before, and each can make a mail show or route to another. */
const SPOOFED_ADDRESSES = [
  "=?utf-8?q?ceo=40corp.example?=@evil.cc",
  "a@[127.0.0.1]",
  "a@127.0.0.1",
  "ceo%corp.example@evil.cc",
  "corp.example!ceo@evil.cc",
  "cc.live\u202e@corp.example",
  "ceo@corp.example@evil.cc",
  "ceo@localhost",
  "ceo@corp..example",
  "ceo@-corp.example",
];

/** The text part of a mail as its reader sees it: the transfer encoding undone. */
function textOf(mail: ReceivedMail): string {
  const body = mail.raw.slice(mail.raw.search(/\r?\n\r?\n/)).replace(/^\r?\n\r?\n/, "");
  const encoding = mail.headers["content-transfer-encoding"]?.toLowerCase();
  if (encoding === "base64") return Buffer.from(body, "base64").toString("utf8");
  if (encoding !== "quoted-printable") return body.replace(/\r\n/g, "\n");
  const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_all, hex: string) => `%${hex}`);
  return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/g, "%25")).replace(/\r\n/g, "\n");
}

describe("enquiries that would spoof the mail", () => {
  let dir: string;
  let api: Awaited<ReturnType<typeof startContentApi>>;
  let content: Awaited<ReturnType<typeof openContentDb>>;
  let renderer: Awaited<ReturnType<typeof createProdRenderer>>;
  let smtp: SmtpReceiver;
  const apps: PortalApp[] = [];
  let databases = 0;

  const start = () => {
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
  const mailOf = async (id: string) => {
    const ours = (mails: ReceivedMail[]) => mails.filter((m) => m.accepted && m.headers["message-id"] === `<${id}@example.com>`);
    await smtp.waitFor((mails) => ours(mails).length > 0);
    return ours(smtp.mails)[0] as ReceivedMail;
  };
  const sentMail = async (app: PortalApp, fields: Record<string, string>) => {
    await request(app).post("/api/portal/enquiry").send(fields).expect(202);
    return mailOf((await app.portal.enquiries.store.list()).at(-1)?.id ?? "");
  };

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

  it("refuses each address a mail program could read as another with the email field's error, and stores none", async () => {
    const app = start();
    for (const email of SPOOFED_ADDRESSES) {
      const answer = await request(app)
        .post("/api/portal/enquiry")
        .send({ ...valid(), email });
      expect(answer.status, email).toBe(400);
      expect(answer.body.data.errors, email).toEqual({ email: "email" });
    }
    const plain = ["li.lei+quotes@example.com", "o'brien@mail.example.co.uk", "王小明@例子.中国", "a_b-c@xn--fiqs8s.example"];
    for (const email of plain) {
      await request(app)
        .post("/api/portal/enquiry")
        .send({ ...valid(), email })
        .expect(202);
    }
    expect((await app.portal.enquiries.store.list()).map((row) => row.email)).toEqual(plain);
  });

  it("refuses a name that reads as an address, with the error in the page's language tied to the field", async () => {
    const app = start();
    const api = await request(app)
      .post("/api/portal/enquiry")
      .send({ ...valid(), name: "CEO <ceo@corp.example>" })
      .expect(400);
    expect(api.body.data.errors).toEqual({ name: "addressSigns" });
    const english = await request(app)
      .post("/portal/en/contact.html")
      .type("form")
      .send(form({ ...valid("en"), name: "CEO <ceo@corp.example>", email: "a@[127.0.0.1]" }))
      .expect(400);
    expect(english.text).toMatch(/id="enquiry-name"[^>]*aria-invalid="true"[^>]*aria-describedby="enquiry-name-error"/);
    expect(english.text).toMatch(/id="enquiry-name-error">Name: this cannot contain &lt;, &gt; or @</);
    expect(english.text).toMatch(/id="enquiry-email"[^>]*aria-invalid="true"[^>]*aria-describedby="enquiry-email-error"/);
    expect(english.text).toMatch(/id="enquiry-email-error">Email: enter a valid email address</);
    const chinese = await request(app)
      .post("/portal/contact.html")
      .type("form")
      .send(form({ ...valid(), name: "ceo@corp.example" }))
      .expect(400);
    expect(chinese.text).toMatch(/id="enquiry-name-error">姓名: 不能包含 &lt;、&gt; 或 @</);
    expect(chinese.text).toContain('href="#enquiry-name"');
    expect(await app.portal.enquiries.store.list()).toEqual([]);
  });

  it("refuses encoded words in the name, company and subject, and full-width address signs in a name, each tied to its field", async () => {
    const app = start();
    const encoded = "=?utf-8?q?CEO_=3Cceo=40corp.example=3E?=";
    const both = await request(app)
      .post("/api/portal/enquiry")
      .send({ ...valid(), name: encoded, subject: encoded })
      .expect(400);
    expect(both.body.data.errors).toEqual({ name: "encodedWord", subject: "encodedWord" });
    const company = await request(app)
      .post("/api/portal/enquiry")
      .send({ ...valid(), company: "=?utf-8?b?Q0VPIDxjZW9AY29ycC5leGFtcGxlPg==?=" })
      .expect(400);
    expect(company.body.data.errors).toEqual({ company: "encodedWord" });
    for (const name of ["ceo\uff20corp.example", "CEO \uff1cceo\uff20corp.example\uff1e"]) {
      const answer = await request(app)
        .post("/api/portal/enquiry")
        .send({ ...valid(), name })
        .expect(400);
      expect(answer.body.data.errors, name).toEqual({ name: "addressSigns" });
    }
    const english = await request(app)
      .post("/portal/en/contact.html")
      .type("form")
      .send(form({ ...valid("en"), name: encoded, subject: encoded }))
      .expect(400);
    expect(english.text).toMatch(/id="enquiry-name"[^>]*aria-invalid="true"[^>]*aria-describedby="enquiry-name-error"/);
    expect(english.text).toMatch(/id="enquiry-name-error">Name: this cannot contain =\?</);
    expect(english.text).toMatch(/id="enquiry-subject"[^>]*aria-invalid="true"[^>]*aria-describedby="enquiry-subject-error"/);
    expect(english.text).toMatch(/id="enquiry-subject-error">Subject: this cannot contain =\?</);
    const chinese = await request(app)
      .post("/portal/contact.html")
      .type("form")
      .send(form({ ...valid(), name: encoded }))
      .expect(400);
    expect(chinese.text).toMatch(/id="enquiry-name-error">姓名: 不能包含 =\?</);
    const fullWidth = await request(app)
      .post("/portal/contact.html")
      .type("form")
      .send(form({ ...valid(), name: "ceo\uff20corp.example" }))
      .expect(400);
    expect(fullWidth.text).toMatch(/id="enquiry-name-error">姓名: 不能包含 &lt;、&gt; 或 @</);
    expect(await app.portal.enquiries.store.list()).toEqual([]);
  });

  it("refuses a full-width address, so no look-alike reaches the receiver's Reply-To", async () => {
    const app = start();
    const before = smtp.mails.length;
    for (const email of ["\uff41@\uff42.cn", "ann@\uff42.cn"]) {
      const answer = await request(app)
        .post("/api/portal/enquiry")
        .send({ ...valid(), email })
        .expect(400);
      expect(answer.body.data.errors, email).toEqual({ email: "email" });
    }
    const mail = await sentMail(app, { ...valid(), email: "ann@corp.cn" });
    expect(mail.headers["reply-to"]).toBe("Li Lei <ann@corp.cn>");
    expect(smtp.mails.slice(before).map((m) => m.headers["reply-to"])).toEqual(["Li Lei <ann@corp.cn>"]);
    expect((await app.portal.enquiries.store.list()).map((row) => row.email)).toEqual(["ann@corp.cn"]);
  });

  it("delivers the message so that none of its lines passes for the mail's own fields", async () => {
    const app = start();
    const message = ["Hello,", "Name: CEO", "Email: ceo@corp.example", "", "Received: 2020-01-01T00:00:00.000Z (id x)", "Thanks."].join(
      "\n",
    );
    const mail = await sentMail(app, { ...valid(), message });
    const text = textOf(mail);
    expect(text.match(/^Email: .*$/gm)).toEqual(["Email: li.lei@example.com"]);
    expect(text.match(/^Name: .*$/gm)).toEqual(["Name: Li Lei"]);
    expect(text.match(/^Received: .*$/gm)).toHaveLength(1);
    const [, body = ""] = text.split(/^Message \(each line of it marked "\|"\):\n/m);
    expect(body.trimEnd().split("\n")).toEqual([
      "| Hello,",
      "| Name: CEO",
      "| Email: ceo@corp.example",
      "|",
      "| Received: 2020-01-01T00:00:00.000Z (id x)",
      "| Thanks.",
    ]);
    expect(mail.headers["reply-to"]).toBe("Li Lei <li.lei@example.com>");
  });

  it("drops bidi controls from the name and subject, so the mail shows them in the order they were typed", async () => {
    const app = start();
    const mail = await sentMail(app, { ...valid(), name: "\u202eLi Lei\u202c", subject: "invoice\u202efdp.exe", message: "a\u2066b" });
    expect(mail.headers["reply-to"]).toBe("Li Lei <li.lei@example.com>");
    expect(mail.headers.subject).toBe("[Enquiry] invoicefdp.exe");
    expect(textOf(mail)).toContain("| ab");
    expect(textOf(mail)).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  it("gives Reply-To a bare address, or none, for an enquiry stored before the form refused spoofs", async () => {
    const app = start();
    const { store, deliverer } = app.portal.enquiries;
    const at = Date.now();
    const row = (name: string, email: string, nonce: string) =>
      store.save(
        {
          created_at: at,
          lang: "zh-CN",
          name,
          email,
          phone: "",
          company: "",
          subject: "",
          message: "stored before",
          consent_at: at,
          consent_version: CONSENT_VERSION,
          client_hash: "x",
          webhook_state: "off",
          mail_state: "pending",
          next_attempt_at: at,
        },
        nonce.padEnd(22, "n"),
        at + 60_000,
      );
    const saved = async (name: string, email: string, nonce: string) => {
      const answer = await row(name, email, nonce);
      if (answer === "replayed") throw new Error("nonces must be fresh");
      return answer.saved;
    };
    const named = await saved("CEO <ceo@corp.example>", "eve@evil.example", "named");
    const encoded = await saved("Eve", "=?utf-8?q?ceo=40corp.example?=@evil.cc", "encoded");
    const wordName = await saved("=?utf-8?q?CEO_=3Cceo=40corp.example=3E?=", "ann@corp.cn", "wordname");
    const wideName = await saved("ceo\uff20corp.example", "ann@corp.cn", "widename");
    const wideAddress = await saved("Ann", "\uff41@\uff42.cn", "wideaddress");
    deliverer?.kick();
    const first = await mailOf(named.id);
    expect(first.headers["reply-to"]).toBe("eve@evil.example");
    const second = await mailOf(encoded.id);
    expect(second.headers["reply-to"]).toBeUndefined();
    expect(second.raw).not.toMatch(/^Reply-To:/im);
    const third = await mailOf(wordName.id);
    expect(third.headers["reply-to"]).toBe("ann@corp.cn");
    // Parted, the encoded word is shown as it was typed, never decoded into an address.
    expect(third.headers.subject).toBe("[Enquiry] = ?utf-8?q?CEO_=3Cceo=40corp.example=3E?=");
    expect((await mailOf(wideName.id)).headers["reply-to"]).toBe("ann@corp.cn");
    expect((await mailOf(wideAddress.id)).raw).not.toMatch(/^Reply-To:/im);
  });
});
