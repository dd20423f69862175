/** The contact form: posted to the page itself without JavaScript, to /api/portal/enquiry with it (docs/behaviour.md#enquiries). */
import { type FormEvent, useEffect, useRef, useState } from "react";
import {
  CONTACT_FORM_ID,
  type EnquiryField,
  type EnquiryFormState,
  FIELD_LIMITS,
  type FieldError,
  FORM_ORDER,
  type FormProblem,
  fieldErrorId,
  fieldId,
  type TextField,
} from "../../shared/enquiry.ts";
import { pageHref } from "../../shared/routes.ts";
import { usePageState } from "../data/page-state-context.tsx";
import { usePageName } from "../hooks/use-page-title.ts";
import { PAGES_MESSAGES } from "../i18n/messages-pages.ts";
import { useT } from "../i18n/use-t.ts";
import type { PageProps } from "./page-props.ts";

const ENQUIRY_API = "/api/portal/enquiry";
/** Tokens this page has spent: a form shown again (client navigation) asks for a fresh one. */
const spent = new Set<string>();

type Errors = Partial<Record<EnquiryField, FieldError>>;

const LABELS: Record<EnquiryField, keyof typeof PAGES_MESSAGES> = {
  name: "pages.contact.name",
  email: "pages.contact.email",
  phone: "pages.contact.phone",
  company: "pages.contact.company",
  subject: "pages.contact.subject",
  message: "pages.contact.message",
  consent: "pages.contact.consent",
};

const INPUTS: Record<Exclude<TextField, "message">, { type: string; autoComplete: string }> = {
  name: { type: "text", autoComplete: "name" },
  email: { type: "email", autoComplete: "email" },
  phone: { type: "tel", autoComplete: "tel" },
  company: { type: "text", autoComplete: "organization" },
  subject: { type: "text", autoComplete: "off" },
};

const HINTS: Partial<Record<EnquiryField, keyof typeof PAGES_MESSAGES>> = {
  phone: "pages.contact.contactHint",
  message: "pages.contact.messageHint",
};

export default function ContactPage({ match, query }: PageProps) {
  const t = useT(PAGES_MESSAGES);
  const pageName = usePageName(match.route);
  const { form: served, lang } = usePageState();
  const [token, setToken] = useState(served && !spent.has(served.token) ? served.token : "");
  const [errors, setErrors] = useState<Errors>(served?.errors ?? {});
  const [problem, setProblem] = useState<FormProblem | undefined>(served?.problem);
  const [sent, setSent] = useState(query.get("sent") === "1");
  const [busy, setBusy] = useState(false);
  const [answered, setAnswered] = useState(0);
  const summary = useRef<HTMLDivElement>(null);
  const thanks = useRef<HTMLHeadingElement>(null);

  // A token is bound to its form's language: one for the other language is dropped.
  const tokenLang = useRef(lang);
  useEffect(() => {
    if (tokenLang.current === lang) return;
    tokenLang.current = lang;
    setToken("");
  }, [lang]);

  useEffect(() => {
    if (token || sent) return;
    let live = true;
    fetch(`${ENQUIRY_API}/token?lang=${encodeURIComponent(lang)}`, { cache: "no-store" })
      .then((response) => response.json())
      .then((body: { data?: { token?: string } }) => {
        if (live && typeof body.data?.token === "string") setToken(body.data.token);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [token, sent, lang]);

  useEffect(() => {
    if (answered === 0) return;
    (sent ? thanks.current : summary.current)?.focus();
  }, [answered, sent]);

  const values: Partial<EnquiryFormState["values"]> = served?.values ?? {};
  const subject = values?.subject ?? query.get("subject") ?? "";
  const action = pageHref("contact", undefined, lang);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const data = new FormData(event.currentTarget);
    const body: Record<string, unknown> = { lang };
    for (const [name, value] of data) body[name] = typeof value === "string" ? value : "";
    body.consent = data.get("consent") !== null;
    body.token = token;
    setBusy(true);
    let outcome: { sent: true } | { errors: Errors; problem?: FormProblem };
    try {
      const response = await fetch(ENQUIRY_API, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = (await response.json().catch(() => ({}))) as { data?: { errors?: Errors; problem?: FormProblem } };
      if (response.status === 202) outcome = { sent: true };
      else if (response.status === 400 && answer.data?.errors) outcome = { errors: answer.data.errors };
      else if (response.status === 400) outcome = { errors: {}, problem: "token" };
      else if (response.status === 429) outcome = { errors: {}, problem: "tooMany" };
      else if (response.status === 403) outcome = { errors: {}, problem: "crossSite" };
      else outcome = { errors: {}, problem: "unavailable" };
    } catch {
      outcome = { errors: {}, problem: "unavailable" };
    }
    setBusy(false);
    if ("sent" in outcome) {
      spent.add(token);
      setToken("");
      setSent(true);
    } else {
      setErrors(outcome.errors);
      setProblem(outcome.problem);
      // A spent or expired token is replaced; the visitor sends again with what they wrote.
      if (outcome.problem === "token") setToken("");
    }
    setAnswered((n) => n + 1);
  }

  if (sent) {
    return (
      <div className="page-wrap page-wrap-narrow">
        <h1 className="page-title">{pageName}</h1>
        <div className="enquiry-sent" role="status">
          <h2 ref={thanks} tabIndex={-1}>
            {t("pages.contact.sentTitle")}
          </h2>
          <p>{t("pages.contact.sentBody")}</p>
          <p>
            <a
              href={action}
              onClick={(event) => {
                event.preventDefault();
                setSent(false);
                setErrors({});
                setProblem(undefined);
              }}
            >
              {t("pages.contact.again")}
            </a>
          </p>
        </div>
      </div>
    );
  }

  const listed = FORM_ORDER.filter((field) => errors[field]);
  const errorOf = (field: EnquiryField) => t(`pages.contact.error.${errors[field]}` as keyof typeof PAGES_MESSAGES);
  // The consent's label is a whole sentence: its error says only what to do.
  const errorText = (field: EnquiryField) => (field === "consent" ? errorOf(field) : `${t(LABELS[field])}: ${errorOf(field)}`);
  const described = (field: EnquiryField) =>
    [HINTS[field] && `${fieldId(field)}-hint`, errors[field] && fieldErrorId(field)].filter(Boolean).join(" ") || undefined;

  const field = (name: Exclude<TextField, "message">, required = false) => (
    <div className="enquiry-field">
      <label htmlFor={fieldId(name)}>
        {t(LABELS[name])}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {HINTS[name] && (
        <p className="enquiry-hint" id={`${fieldId(name)}-hint`}>
          {t(HINTS[name])}
        </p>
      )}
      {errors[name] && (
        <p className="enquiry-error" id={fieldErrorId(name)}>
          {errorText(name)}
        </p>
      )}
      <input
        id={fieldId(name)}
        name={name}
        type={INPUTS[name].type}
        autoComplete={INPUTS[name].autoComplete}
        maxLength={FIELD_LIMITS[name]}
        required={required}
        defaultValue={name === "subject" ? subject : (values?.[name] ?? "")}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={described(name)}
      />
    </div>
  );

  return (
    <div className="page-wrap page-wrap-narrow">
      <h1 className="page-title">{pageName}</h1>
      {(listed.length > 0 || problem) && (
        <div className="enquiry-summary" ref={summary} tabIndex={-1} role="alert" aria-labelledby="enquiry-summary-title">
          <h2 id="enquiry-summary-title">{problem ? t(`pages.contact.problem.${problem}`) : t("pages.contact.errorsTitle")}</h2>
          {listed.length > 0 && (
            <ul>
              {listed.map((name) => (
                <li key={name}>
                  <a href={`#${fieldId(name)}`}>{errorText(name)}</a>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <p className="enquiry-intro">{t("pages.contact.intro")}</p>
      <form id={CONTACT_FORM_ID} className="enquiry-form" method="post" action={action} noValidate onSubmit={send}>
        <input type="hidden" name="token" value={token} />
        {field("name", true)}
        {field("email")}
        {field("phone")}
        {field("company")}
        {field("subject")}
        <div className="enquiry-field">
          <label htmlFor={fieldId("message")}>
            {t(LABELS.message)}
            <span aria-hidden="true"> *</span>
          </label>
          <p className="enquiry-hint" id={`${fieldId("message")}-hint`}>
            {t("pages.contact.messageHint")}
          </p>
          {errors.message && (
            <p className="enquiry-error" id={fieldErrorId("message")}>
              {errorText("message")}
            </p>
          )}
          <textarea
            id={fieldId("message")}
            name="message"
            rows={8}
            maxLength={FIELD_LIMITS.message}
            required
            defaultValue={values?.message ?? ""}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={described("message")}
          />
        </div>
        {/* People never see this field; a machine filling in every field fills it too. */}
        <div className="enquiry-trap">
          <label htmlFor="enquiry-website">{t("pages.contact.trap")}</label>
          <input id="enquiry-website" name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <div className="enquiry-field enquiry-consent">
          {errors.consent && (
            <p className="enquiry-error" id={fieldErrorId("consent")}>
              {errorText("consent")}
            </p>
          )}
          <input
            id={fieldId("consent")}
            name="consent"
            type="checkbox"
            required
            defaultChecked={values?.consent ?? false}
            aria-invalid={errors.consent ? true : undefined}
            aria-describedby={described("consent")}
          />
          <label htmlFor={fieldId("consent")}>
            {t(LABELS.consent)}
            <span aria-hidden="true"> *</span>
          </label>
        </div>
        <button type="submit" className="enquiry-send" disabled={busy}>
          {busy ? t("pages.contact.sending") : t("pages.contact.send")}
        </button>
      </form>
    </div>
  );
}
