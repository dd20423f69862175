/** The contact form's fields and rules, read by the server, which alone decides (docs/behaviour.md#enquiries). */
import { isPlainEmail } from "./email-address.ts";
import { SUBJECT_LIMIT } from "./subject-limit.ts";

const TEXT_FIELDS = ["name", "email", "phone", "company", "subject", "message"] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
export type EnquiryField = TextField | "consent";

/** In UTF-16 units, as a browser's maxlength counts. */
export const FIELD_LIMITS: Record<TextField, number> = {
  name: 100,
  email: 254,
  phone: 40,
  company: 200,
  subject: SUBJECT_LIMIT,
  message: 5000,
};

/** Change it when the consent text changes. */
export const CONSENT_VERSION = "2025-01";

export type FieldError =
  | "required"
  | "tooLong"
  | "email"
  | "phone"
  | "contact"
  | "singleLine"
  | "addressSigns"
  | "encodedWord"
  | "consent"
  | "invalid";

export interface EnquiryValues {
  name: string;
  email: string;
  phone: string;
  company: string;
  subject: string;
  message: string;
  consent: boolean;
}

export type FormProblem = "token" | "tooMany" | "unavailable" | "crossSite";

export interface EnquiryFormState {
  token: string;
  values?: EnquiryValues;
  errors?: Partial<Record<EnquiryField, FieldError>>;
  problem?: FormProblem;
}

export interface ReadEnquiry {
  values: EnquiryValues;
  errors: Partial<Record<EnquiryField, FieldError>>;
  token: string;
  trap: string;
}

const PHONE = /^[0-9+()\-. ]{5,40}$/;
/** A line break in a one-line field could start a mail header. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
const MESSAGE_CONTROL = /(?![\n\t])\p{Cc}/gu;
/** Direction marks, embeddings, overrides and isolates: invisible, and able to show text in another order than it is. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
/** What would make a name read as an address where it is shown before one (a mail's Reply-To), full-width forms too once NFKC-folded. */
const ADDRESS_SIGNS = /[<>@]/;
/** Starts an RFC 2047 encoded word: a mail program shows it decoded, as any text it likes, in a header. */
const ENCODED_WORD = "=?";
/** Fields that reach a mail's headers (Reply-To's name, Subject) or sit beside them. */
const HEADER_TEXT: readonly TextField[] = ["name", "company", "subject"];

const SINGLE_LINE: readonly TextField[] = ["name", "email", "phone", "company", "subject"];

/** From a form posted twice with one name, the first value. */
function textOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  return undefined;
}

function consentOf(value: unknown): boolean | undefined {
  if (value === true) return true;
  if (value === undefined || value === null || value === false || value === "") return false;
  if (typeof value === "string") return ["on", "true", "1", "yes"].includes(value.trim().toLowerCase());
  return undefined;
}

export function readEnquiry(body: Record<string, unknown>): ReadEnquiry {
  const errors: ReadEnquiry["errors"] = {};
  const values = { consent: false } as EnquiryValues;
  for (const field of TEXT_FIELDS) {
    const raw = textOf(body[field]);
    if (raw === undefined) {
      values[field] = "";
      errors[field] = "invalid";
      continue;
    }
    // An address is taken exactly as typed or refused; elsewhere bidi controls are dropped.
    const text = field === "email" ? raw : raw.replace(BIDI, "");
    let value = field === "message" ? text.replace(/\r\n?/g, "\n").replace(MESSAGE_CONTROL, "").trim() : text.trim();
    if (value.length > FIELD_LIMITS[field]) errors[field] = "tooLong";
    else if (SINGLE_LINE.includes(field) && CONTROL.test(value)) errors[field] = "singleLine";
    if (value.length > FIELD_LIMITS[field] * 2) value = value.slice(0, FIELD_LIMITS[field] * 2);
    values[field] = value;
  }
  if (!errors.name && !values.name) errors.name = "required";
  if (!errors.message && !values.message) errors.message = "required";
  for (const field of HEADER_TEXT) if (!errors[field] && values[field].includes(ENCODED_WORD)) errors[field] = "encodedWord";
  if (!errors.name && ADDRESS_SIGNS.test(values.name.normalize("NFKC"))) errors.name = "addressSigns";
  if (!errors.email && values.email && !isPlainEmail(values.email)) errors.email = "email";
  if (!errors.phone && values.phone && !PHONE.test(values.phone)) errors.phone = "phone";
  if (!values.email && !values.phone && !errors.email && !errors.phone) errors.email = "contact";
  const consent = consentOf(body.consent);
  values.consent = consent === true;
  if (consent === undefined) errors.consent = "invalid";
  else if (!consent) errors.consent = "consent";
  return { values, errors, token: typeof body.token === "string" ? body.token : "", trap: textOf(body.website) ?? "x" };
}

export const FORM_ORDER: readonly EnquiryField[] = ["name", "email", "phone", "company", "subject", "message", "consent"];

export const CONTACT_FORM_ID = "enquiry-form";
export const fieldId = (field: EnquiryField) => `enquiry-${field}`;
export const fieldErrorId = (field: EnquiryField) => `enquiry-${field}-error`;
