/**
 * The contact form's hostile input and delivery, on SQLite and PostgreSQL: 4xx and never
 * 500, no line break into the mail's headers, retries while a real webhook receiver and a
 * real SMTP server on loopback are down, one channel again without the other, retention.
 */
import request from "supertest";
import { expect, it } from "vitest";
import { describeEachDatabase } from "../support/databases.ts";
import { enquirySiteOn, form, valid } from "../support/enquiry-site.ts";

describeEachDatabase("enquiry input and retries", (databases) => {
  const site = enquirySiteOn(databases);
  const { start, delivered, newest } = site;

  it("answers hostile input with 4xx, never 500, and lets no line break into the mail's headers", async () => {
    const app = start({ ENQUIRY_RATE_PER_HOUR: "100" });
    const bodies: unknown[] = [
      [],
      "text",
      42,
      null,
      true,
      { ...valid(), name: ["a", "b"] },
      { ...valid(), name: { $gt: "" } },
      { ...valid(), message: 12 },
      { ...valid(), consent: { yes: true } },
      { ...valid(), token: ["x"] },
      { ...valid(), message: "x".repeat(5001) },
      { ...valid(), subject: "Hi\r\nBcc: victim@example.com" },
      { ...valid(), name: "Eve\nBcc: victim@example.com" },
      { ...valid(), email: "eve@example.com\r\nBcc: victim@example.com" },
      { ...valid(), email: "eve@example.com>, victim@example.com" },
      { ...valid(), subject: "s".repeat(201) },
    ];
    for (const body of bodies) {
      const answer = await request(app).post("/api/portal/enquiry").set("content-type", "application/json").send(JSON.stringify(body));
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    await request(app).post("/api/portal/enquiry").set("content-type", "application/json").send("{not json").expect(400);
    await request(app)
      .post("/api/portal/enquiry")
      .send({ ...valid(), message: "m".repeat(70_000) })
      .expect(413);
    await request(app)
      .post("/portal/contact.html")
      .type("form")
      .send(`${form(valid())}&message=${"m".repeat(70_000)}`)
      .expect(413);
    await request(app).post("/portal/contact.html").set("content-type", "application/json").send(JSON.stringify(valid())).expect(415);
    const arrays = await request(app)
      .post("/portal/contact.html")
      .type("form")
      .send(`${form(valid())}&name=second&name[]=x`)
      .expect(400);
    expect(arrays.text).toContain("enquiry-summary");
    const long = await request(app)
      .post("/portal/contact.html")
      .type("form")
      .send(form({ ...valid(), message: "y".repeat(5001) }))
      .expect(400);
    expect(long.text).toContain('href="#enquiry-message"');
    // HTML is text: delivered as it was typed, never as markup.
    await request(app)
      .post("/api/portal/enquiry")
      .send({ ...valid(), subject: "<b>bold</b>", message: '<img src=x onerror="alert(1)">' })
      .expect(202);
    const stored = await newest(app);
    const { hooks, mails } = await delivered(stored?.id ?? "");
    expect(hooks[0]?.body.data.message).toBe('<img src=x onerror="alert(1)">');
    expect(mails[0]?.headers.subject).toBe("[Enquiry] <b>bold</b>");
    expect(mails[0]?.headers["content-type"]).toMatch(/^text\/plain/);
    expect(site.smtp.mails.every((m) => m.to.length === 1 && !/victim/.test(m.raw))).toBe(true);
  });

  it("retries while the receivers are down and delivers once, with the same webhook-id, when they are back", async () => {
    const app = start();
    site.webhook.up = false;
    site.smtp.up = false;
    await request(app).post("/api/portal/enquiry").send(valid()).expect(202);
    const id = (await newest(app))?.id ?? "";
    await site.webhook.waitFor((calls) => calls.filter((c) => c.id === id).length >= 3);
    await site.smtp.waitFor((mails) => mails.filter((m) => m.headers["message-id"] === `<${id}@example.com>`).length >= 3);
    site.webhook.up = true;
    site.smtp.up = true;
    const { hooks, mails } = await delivered(id);
    expect(hooks.every((h) => h.id === id && h.signed)).toBe(true);
    expect(hooks.filter((h) => h.accepted)).toHaveLength(1);
    expect(mails.filter((m) => m.accepted)).toHaveLength(1);
    expect(await app.portal.metrics.registry.metrics()).toMatch(/portal_enquiry_delivery_retries_total [1-9]/);
  });

  it("delivers by one channel again without repeating the other", async () => {
    const app = start();
    site.smtp.up = false;
    await request(app).post("/api/portal/enquiry").send(valid()).expect(202);
    const id = (await newest(app))?.id ?? "";
    await site.smtp.waitFor((mails) => mails.filter((m) => m.headers["message-id"] === `<${id}@example.com>`).length >= 2);
    site.smtp.up = true;
    const { hooks } = await delivered(id);
    expect(hooks).toHaveLength(1);
  });

  it("deletes enquiries past ENQUIRY_RETENTION_DAYS", async () => {
    let clock = Date.now();
    const app = start({ ENQUIRY_RETENTION_DAYS: "30" }, { now: () => clock });
    await request(app).post("/api/portal/enquiry").send(valid()).expect(202);
    const id = (await newest(app))?.id ?? "";
    await delivered(id);
    clock += 29 * 86_400_000;
    await app.portal.enquiries.sweep();
    expect((await app.portal.enquiries.store.list()).some((row) => row.id === id)).toBe(true);
    clock += 2 * 86_400_000;
    await app.portal.enquiries.sweep();
    expect((await app.portal.enquiries.store.list()).some((row) => row.id === id)).toBe(false);
  });
});
