/**
 * The contact form cannot be used to make its mail lie: addresses that a mail program reads
 * as more than a plain mailbox are refused with the email field's error, a name cannot pose
 * as an address, and encoded words and full-width address signs are refused, each tied to its field.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { form, sentMail, smtp, spoofingSiteForTheFile, start, valid } from "../support/enquiry-spoofing-site.ts";

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

describe("enquiries that would spoof the mail", () => {
  spoofingSiteForTheFile();

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
});
