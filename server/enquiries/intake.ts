/**
 * A submitted form, from the page's POST or the JSON API alike: token, spam checks, fields,
 * hourly limit, then stored before it is accepted (docs/behaviour.md#enquiries).
 */
import { CONSENT_VERSION, type EnquiryValues, type ReadEnquiry, readEnquiry } from "../../shared/enquiry.ts";
import type { Lang } from "../../shared/page-state.ts";
import { clientKeyOf } from "../admission/client-key.ts";
import type { ClientLimit, LimitSpec } from "../admission/shared-limit.ts";
import { type EnquiryConfig, withoutCredentials } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { Deliverer } from "./delivery.ts";
import { createFormKeys, type FormKeys, MIN_FILL_MS, TOKEN_LIFETIME_MS } from "./form-keys.ts";
import type { EnquiryMetrics, RefusalReason } from "./metrics.ts";
import type { EnquiryStore } from "./store.ts";

export type Outcome =
  | { kind: "accepted"; id: string }
  /** Told exactly what "accepted" is told. */
  | { kind: "spam"; reason: "honeypot" | "too_fast" }
  | { kind: "invalid"; read: ReadEnquiry }
  | { kind: "token"; read: ReadEnquiry }
  | { kind: "tooMany"; read: ReadEnquiry; retryAfterS: number }
  | { kind: "unavailable"; read: ReadEnquiry };

export interface Intake {
  keys: FormKeys;
  /** `body` is any JSON value, or a parsed form. */
  /** `site`: what the token must be bound to, with `lang` (form-keys.ts). */
  submit(body: unknown, client: { address: string | undefined; lang: Lang; site: string }): Promise<Outcome>;
}

interface IntakeOptions {
  config: EnquiryConfig;
  store: EnquiryStore;
  deliverer: Deliverer | undefined;
  metrics: EnquiryMetrics;
  logger: Logger;
  /** The per-client limit of `spec`: this instance's own, or counted across instances. */
  limit: (spec: LimitSpec) => ClientLimit;
  now?: () => number;
}

const HOUR_S = 3600;

export function createIntake({ config, store, deliverer, metrics, logger, limit, now = Date.now }: IntakeOptions): Intake {
  const keys = createFormKeys(config.formSecret);
  const hourly = limit({ name: "enquiry", points: config.ratePerHour, durationS: HOUR_S });

  async function retryAfterOf(client: string): Promise<number> {
    const admitted = await hourly(client);
    return admitted.ok ? 0 : admitted.retryAfterS;
  }

  const refuse = <O extends Outcome>(reason: RefusalReason, outcome: O): O => {
    metrics.refused(reason);
    return outcome;
  };

  return {
    keys,
    async submit(body, client) {
      const object = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
      const read = readEnquiry(object);
      const at = now();
      const token = keys.check(read.token, at, { lang: client.lang, site: client.site });
      if (!token.ok) return refuse("token", { kind: "token", read });
      // A form with mistakes is told so however fast it came: a visitor who sends it empty at once must not be thanked.
      if (Object.keys(read.errors).length > 0) return refuse("invalid", { kind: "invalid", read });
      if (read.trap !== "") return refuse("honeypot", { kind: "spam", reason: "honeypot" });
      if (at - token.issuedAt < MIN_FILL_MS) return refuse("too_fast", { kind: "spam", reason: "too_fast" });
      // Counted by its keyed hash: no count, here or in Redis, holds the address itself.
      const clientHash = keys.clientHash(clientKeyOf(client.address));
      const retryAfterS = await retryAfterOf(clientHash);
      if (retryAfterS > 0) return refuse("rate", { kind: "tooMany", read, retryAfterS });
      let saved: Awaited<ReturnType<EnquiryStore["save"]>>;
      try {
        saved = await store.save(rowOf(read.values, at, client.lang, clientHash, config), token.nonce, token.issuedAt + TOKEN_LIFETIME_MS);
      } catch (error) {
        logger.error(
          { err: withoutCredentials(error instanceof Error ? error.message : String(error)) },
          "an enquiry could not be stored: the visitor was asked to try again",
        );
        return refuse("unavailable", { kind: "unavailable", read });
      }
      if (saved === "replayed") return refuse("replayed", { kind: "token", read });
      metrics.received();
      deliverer?.kick();
      return { kind: "accepted", id: saved.saved.id };
    },
  };
}

function rowOf(values: EnquiryValues, at: number, lang: Lang, clientHash: string, config: EnquiryConfig) {
  const anyChannel = config.webhook !== undefined || config.mail !== undefined;
  return {
    created_at: at,
    lang,
    name: values.name,
    email: values.email,
    phone: values.phone,
    company: values.company,
    subject: values.subject,
    message: values.message,
    consent_at: at,
    consent_version: CONSENT_VERSION,
    client_hash: clientHash,
    webhook_state: config.webhook ? ("pending" as const) : ("off" as const),
    mail_state: config.mail ? ("pending" as const) : ("off" as const),
    next_attempt_at: anyChannel ? at : null,
  };
}
