/**
 * The mail an enquiry is delivered as: the form's fields in the head of the text, the visitor's
 * message below with every line marked, so nothing the visitor wrote can pass for a field of
 * ours (docs/behaviour.md#enquiries, "Delivery").
 */
import type { SendMailOptions } from "nodemailer";
import { isPlainEmail } from "../../shared/email-address.ts";
import type { EnquiryConfig } from "../config.ts";
import type { Enquiry } from "./store.ts";

/** Starts each line of the visitor's message; no line of ours starts so. */
export const QUOTE = "| ";

/** Controls, bidi controls, address signs (full-width too, once NFKC-folded) and encoded words: what could make a name read as something else before an address. */
const NOT_IN_DISPLAY_NAME = /[\p{Cc}\p{Cf}\u2028\u2029<>@"]|=\?/u;
/** Enquiries stored before the form refused these reach the mail too: the head lines drop them. */
const UNSEEN = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/gu;

const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1);
const oneLine = (text: string) => text.replace(UNSEEN, "");

export function mailText(enquiry: Enquiry): string {
  const head = [
    `Name: ${oneLine(enquiry.name)}`,
    enquiry.company && `Company: ${oneLine(enquiry.company)}`,
    enquiry.email && `Email: ${oneLine(enquiry.email)}`,
    enquiry.phone && `Phone: ${oneLine(enquiry.phone)}`,
    enquiry.subject && `Subject: ${oneLine(enquiry.subject)}`,
    `Received: ${new Date(enquiry.created_at).toISOString()} (id ${enquiry.id})`,
  ];
  const message = enquiry.message
    .split(/\r\n|\r|\n/)
    .map((line) => `${QUOTE}${line}`.trimEnd())
    .join("\n");
  return `${head.filter(Boolean).join("\n")}\n\nMessage (each line of it marked "${QUOTE.trim()}"):\n${message}\n`;
}

/** Reply-To only to a plain address, with the visitor's name beside it only when it cannot read as one. */
function replyToOf(enquiry: Enquiry): SendMailOptions["replyTo"] {
  if (!enquiry.email || !isPlainEmail(enquiry.email)) return undefined;
  const name = oneLine(enquiry.name).trim();
  return name && !NOT_IN_DISPLAY_NAME.test(name.normalize("NFKC")) ? { name, address: enquiry.email } : enquiry.email;
}

export function mailOf(enquiry: Enquiry, mail: NonNullable<EnquiryConfig["mail"]>): SendMailOptions {
  return {
    from: mail.from,
    to: mail.to,
    // As values: nodemailer encodes them, and the form let no line break into any.
    replyTo: replyToOf(enquiry),
    // A space parts an encoded word of a row stored before the form refused them: nodemailer sends ASCII as it is.
    subject: `[Enquiry] ${oneLine(enquiry.subject || enquiry.name).replaceAll("=?", "= ?")}`,
    text: mailText(enquiry),
    messageId: `<${enquiry.id}@${domainOf(mail.from)}>`,
    date: new Date(enquiry.created_at),
  };
}
