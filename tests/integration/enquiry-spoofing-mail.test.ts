/**
 * What a real SMTP server on loopback receives from the contact form: the visitor's message
 * kept apart from the mail's own fields, bidi controls dropped, and Reply-To a bare address or
 * none, for enquiries stored before the form refused spoofs too.
 */
import { describe, expect, it } from "vitest";
import { CONSENT_VERSION } from "../../shared/enquiry.ts";
import type { ReceivedMail } from "../support/enquiry-receivers.ts";
import { mailOf, sentMail, spoofingSiteForTheFile, start, valid } from "../support/enquiry-spoofing-site.ts";

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
  spoofingSiteForTheFile();

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
