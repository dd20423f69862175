/** The contact form's enquiries put together: store, intake, delivery, retention sweep, metrics and routes (docs/behaviour.md#enquiries). */
import type { Request, Router } from "express";
import type { Registry } from "prom-client";
import type { EnquiryFormState } from "../../shared/enquiry.ts";
import { BASE_PATH, splitLangPath } from "../../shared/routes.ts";
import type { MissGate } from "../admission/miss-budget.ts";
import type { ClientLimit, LimitSpec } from "../admission/shared-limit.ts";
import { type EnquiryConfig, withoutCredentials } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { SendOwnPage } from "../pages/router.ts";
import { createDeliverer, type Deliverer } from "./delivery.ts";
import { siteOf } from "./form-origin.ts";
import { createIntake, type Intake } from "./intake.ts";
import { createEnquiryMetrics } from "./metrics.ts";
import { createEnquiryRouter } from "./router.ts";
import { createEnquiryStore, type EnquiryStore } from "./store.ts";

const RETENTION_SWEEP_MS = 3600_000;
const FIRST_SWEEP_MS = 10_000;
const DAY_MS = 86_400_000;

export interface Enquiries {
  store: EnquiryStore;
  intake: Intake;
  deliverer: Deliverer | undefined;
  router(pageSender: () => SendOwnPage | undefined): Router;
  /** The form of the contact page asked for by `req`: a token bound to that page. */
  formState(req: Request): { form: EnquiryFormState };
  start(): void;
  /** The number of enquiries deleted. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

interface EnquiryDeps {
  logger: Logger;
  registry: Registry;
  /** The per-client limit of `spec`: this instance's own, or counted across instances. */
  limit: (spec: LimitSpec) => ClientLimit;
  /** Charged for each token the API gives out. */
  missBudget: MissGate;
  /** PUBLIC_ORIGIN: the origin forms must come from (unset: the host they are sent to). */
  publicOrigin: string | undefined;
  now?: () => number;
  backoffBaseMs?: number;
  pollMs?: number;
}

export function createEnquiries(
  settings: EnquiryConfig,
  databaseUrl: string,
  { logger, registry, limit, missBudget, publicOrigin, now = Date.now, backoffBaseMs, pollMs }: EnquiryDeps,
): Enquiries {
  const store = createEnquiryStore(databaseUrl);
  const metrics = createEnquiryMetrics(registry, async () => (store.isOpen() ? store.oldestPending() : undefined), now);
  const deliverer =
    settings.webhook || settings.mail
      ? createDeliverer({ store, config: settings, logger, events: metrics, now, backoffBaseMs, pollMs })
      : undefined;
  const intake = createIntake({ config: settings, store, deliverer, metrics, logger, limit, now });
  const sweep = async () => {
    const deleted = await store.deleteOlderThan(now() - settings.retentionDays * DAY_MS, now());
    if (deleted > 0) logger.info({ deleted, retentionDays: settings.retentionDays }, "deleted enquiries past their retention");
    return deleted;
  };
  const runSweep = () => {
    sweep().catch((error: unknown) =>
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, "enquiry retention sweep failed"),
    );
  };
  let first: NodeJS.Timeout | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  return {
    start() {
      if (sweeper) return;
      // Now, so a database that is away is said at start.
      store
        .ping()
        .catch((error: unknown) =>
          logger.warn(
            { err: withoutCredentials(error instanceof Error ? error.message : String(error)) },
            "the enquiry database is not reachable yet: enquiries are refused with 503 until it is",
          ),
        );
      deliverer?.start();
      first = setTimeout(runSweep, FIRST_SWEEP_MS).unref();
      sweeper = setInterval(runSweep, RETENTION_SWEEP_MS).unref();
    },
    store,
    intake,
    deliverer,
    router: (pageSender) => createEnquiryRouter({ intake, pageSender, publicOrigin, missBudget, metrics, now }),
    formState(req) {
      const lang = splitLangPath(new URL(req.originalUrl, "http://portal.invalid").pathname.slice(BASE_PATH.length)).lang;
      return { form: { token: intake.keys.issue(now(), { lang, site: siteOf(req, publicOrigin) }) } };
    },
    sweep,
    async close() {
      clearTimeout(first);
      clearInterval(sweeper);
      await deliverer?.stop();
      await store.close();
    },
  };
}
