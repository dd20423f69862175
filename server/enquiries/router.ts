/**
 * The contact form's endpoints: the page's form post, `POST /api/portal/enquiry` and
 * `GET /api/portal/enquiry/token` (docs/behaviour.md#enquiries).
 */
import express, { type NextFunction, type Request, type Response, Router } from "express";
import type { EnquiryFormState } from "../../shared/enquiry.ts";
import type { Lang } from "../../shared/page-state.ts";
import { BASE_PATH, pageHref, splitLangPath } from "../../shared/routes.ts";
import { baseLang, siteLangOf, siteLangs } from "../../shared/site-langs.ts";
import { type MissGate, tooManyMisses } from "../admission/miss-budget.ts";
import { HttpError } from "../http/errors.ts";
import type { SendOwnPage } from "../pages/router.ts";
import { crossSiteRefusal, siteOf } from "./form-origin.ts";
import type { Intake, Outcome } from "./intake.ts";
import type { EnquiryMetrics } from "./metrics.ts";

const ENQUIRY_API_PATH = "/api/portal/enquiry";
/** Far more than the longest form (5000 characters of message, each up to 9 bytes encoded, and the rest). */
const BODY_LIMIT = 64 * 1024;

interface EnquiryRouterDeps {
  intake: Intake;
  pageSender: () => SendOwnPage | undefined;
  /** Undefined: a form is ours when its Origin names the host it was sent to. */
  publicOrigin: string | undefined;
  /** Charged for each token given out, as a page render is: tokens cannot be farmed faster than pages. */
  missBudget: MissGate;
  metrics: Pick<EnquiryMetrics, "refused">;
  now?: () => number;
}

const STATUS_OF: Record<Exclude<Outcome["kind"], "accepted" | "spam">, number> = {
  invalid: 400,
  token: 400,
  tooMany: 429,
  unavailable: 503,
};

export function createEnquiryRouter({ intake, pageSender, publicOrigin, missBudget, metrics, now = Date.now }: EnquiryRouterDeps): Router {
  const router = Router();
  const CONTACT_PATHS = siteLangs().map((lang) => pageHref("contact", undefined, lang));
  const pageOf = (req: Request) => {
    const path = req.path.slice(BASE_PATH.length);
    return { path, lang: splitLangPath(path).lang };
  };
  const issue = (req: Request, lang: Lang) => intake.keys.issue(now(), { lang, site: siteOf(req, publicOrigin) });
  const refusalOf = (req: Request) => {
    const refusal = crossSiteRefusal(req, publicOrigin);
    if (refusal && req.method === "POST") metrics.refused("cross_site");
    return refusal;
  };

  /** A form post from another site gets the form, empty (its text is the other site's), and why. */
  router.post(CONTACT_PATHS, async (req: Request, res: Response, next: NextFunction) => {
    const refusal = refusalOf(req);
    if (!refusal) {
      next();
      return;
    }
    res.setHeader("Cache-Control", "no-store");
    const sendOwnPage = pageSender();
    if (!sendOwnPage) {
      res.status(403).type("text/plain").send(`403 ${refusal}\n`);
      return;
    }
    const { path, lang } = pageOf(req);
    await sendOwnPage(req, res, path, { form: { token: issue(req, lang), problem: "crossSite" } }, 403);
  });

  const parseForm = express.urlencoded({ extended: false, limit: BODY_LIMIT, parameterLimit: 50, type: () => true });
  router.post(CONTACT_PATHS, (req, _res, next) => {
    next(
      req.is("application/x-www-form-urlencoded") ? undefined : new HttpError(415, "send the form as application/x-www-form-urlencoded"),
    );
  });
  router.post(CONTACT_PATHS, parseForm, async (req: Request, res: Response) => {
    const { path, lang } = pageOf(req);
    const outcome = await intake.submit(req.body, { address: req.ip, lang, site: siteOf(req, publicOrigin) });
    res.setHeader("Cache-Control", "no-store");
    if (outcome.kind === "accepted" || outcome.kind === "spam") {
      res.redirect(303, `${BASE_PATH}${path}?sent=1`);
      return;
    }
    if (outcome.kind === "tooMany") res.setHeader("Retry-After", String(outcome.retryAfterS));
    const form: EnquiryFormState = {
      token: issue(req, lang),
      values: outcome.read.values,
      errors: outcome.kind === "invalid" ? outcome.read.errors : undefined,
      problem: outcome.kind === "invalid" ? undefined : outcome.kind,
    };
    const sendOwnPage = pageSender();
    if (!sendOwnPage) {
      res.status(STATUS_OF[outcome.kind]).type("text/plain").send(`${STATUS_OF[outcome.kind]} the enquiry was not accepted\n`);
      return;
    }
    await sendOwnPage(req, res, path, { form }, STATUS_OF[outcome.kind]);
  });

  const ourOwn = (req: Request, _res: Response, next: NextFunction) => {
    const refusal = refusalOf(req);
    next(refusal ? new HttpError(403, refusal) : undefined);
  };
  const parseJson = express.json({ limit: BODY_LIMIT, strict: false, type: () => true });
  router.post(ENQUIRY_API_PATH, ourOwn, (req, _res, next) => {
    // A form or text/plain body is what another site's page can send without asking first (CORS).
    next(req.is("application/json") ? undefined : new HttpError(415, "send the enquiry as JSON, with Content-Type: application/json"));
  });
  router.post(ENQUIRY_API_PATH, parseJson, async (req: Request, res: Response) => {
    const lang: Lang = siteLangOf(req.body?.lang) ?? baseLang();
    const outcome = await intake.submit(req.body, { address: req.ip, lang, site: siteOf(req, publicOrigin) });
    res.setHeader("Cache-Control", "no-store");
    if (outcome.kind === "accepted" || outcome.kind === "spam") {
      res.status(202).json({ code: 0, msg: "accepted", data: null });
      return;
    }
    if (outcome.kind === "tooMany") res.setHeader("Retry-After", String(outcome.retryAfterS));
    const status = STATUS_OF[outcome.kind];
    res.status(status).json({
      code: status,
      msg: MESSAGES[outcome.kind],
      data: outcome.kind === "invalid" ? { errors: outcome.read.errors } : { problem: outcome.kind },
    });
  });
  router.all(ENQUIRY_API_PATH, (_req, _res, next) => next(new HttpError(405, "POST an enquiry as JSON")));

  router.get(`${ENQUIRY_API_PATH}/token`, ourOwn, async (req, res, next) => {
    const given = new URL(req.originalUrl, "http://portal.invalid").searchParams.getAll("lang");
    const asked = given.length === 0 ? baseLang() : siteLangOf(given[0]);
    if (given.length > 1 || !asked) {
      next(new HttpError(400, `lang must be one of ${siteLangs().join(", ")}`));
      return;
    }
    const admitted = await missBudget.take(req.ip);
    if (!admitted.ok) {
      next(tooManyMisses(admitted.retryAfterS));
      return;
    }
    res.setHeader("Cache-Control", "no-store");
    res.json({ code: 0, msg: "ok", data: { token: issue(req, asked as Lang) } });
  });
  return router;
}

const MESSAGES: Record<keyof typeof STATUS_OF, string> = {
  invalid: "some fields need correcting",
  token: "the form has expired or was sent before: load it again",
  tooMany: "too many enquiries from this address: try again later",
  unavailable: "the enquiry could not be stored: try again in a moment",
};
