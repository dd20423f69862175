/**
 * The grading rules of Mozilla's HTTP Observatory ("HTTP Observatory Scoring Methodology",
 * the tests-and-scoring page of the MDN HTTP Observatory documentation), applied to one
 * scan's answers. Pure: it reads headers and HTML handed to it and fetches nothing.
 *
 * Scoring: every site starts at 100. First the penalties (negative modifiers) are
 * deducted; only when that leaves 90 (A) or more are the bonuses (positive modifiers)
 * added. The score is never below 0 and has no upper bound. Grades are looked up by the
 * score rounded down to a multiple of 5: 100+ A+, 90-99 A, 85-89 A-, 80-84 B+, 70-79 B,
 * 65-69 B-, 60-64 C+, 50-59 C, 45-49 C-, 40-44 D+, 30-39 D, 25-29 D-, 0-24 F.
 *
 * Where the page's table is terse, each test's outcome follows the Observatory's own
 * published analyzer: which directive falls back to which, which check wins when several
 * fail, how a header sent twice is read. Those choices are noted at each test.
 *
 * What one origin server behind TLS termination cannot show, and is therefore an input
 * or an assumption here rather than something measured:
 * - Redirection: the scan's http:// request is answered by the deployment's TLS proxy,
 *   not by this server. The caller passes the route that request takes (`httpRoute`); the
 *   proxy's job is to send http://host/ to https://host/ on the same host, after which
 *   this server's own redirect applies.
 * - Certificates: a valid chain is assumed (the proxy's job), so the outcomes
 *   hsts-invalid-cert and redirection-invalid-cert never occur here.
 * - The HSTS preload list: membership is not knowable from headers. Hosts are taken
 *   as not preloaded, so hsts-preloaded (+5) and redirection-all-redirects-preloaded are
 *   never claimed: the score can only come out lower than the real scan's, never higher.
 * - Registrable domains (for Subresource Integrity) need the Public Suffix List; the caller
 *   may pass `registrableDomain`, otherwise a script's host must equal the page's host to
 *   count as the same site, which again can only lower the score.
 * - The Observatory refuses to grade an answer that is not 2xx. The status is not read
 *   here, so an error answer's headers can be judged by the same rules.
 */
import { cookies } from "./observatory/cookies.ts";
import { contentSecurityPolicy } from "./observatory/csp.ts";
import {
  crossOriginResourcePolicy,
  crossOriginResourceSharing,
  redirection,
  referrerPolicy,
  strictTransportSecurity,
  subresourceIntegrity,
  xContentTypeOptions,
  xFrameOptions,
} from "./observatory/header-tests.ts";
import { readPage, setCookiesOf } from "./observatory/page.ts";
import {
  gradeFor,
  MINIMUM_SCORE_FOR_BONUSES,
  MODIFIERS,
  type ObservatoryInput,
  type ObservatoryScore,
  type TestName,
} from "./observatory/scoring.ts";

export { CspSyntaxError, type ParsedCsp, parseCsp } from "./observatory/csp.ts";
export {
  type Grade,
  gradeFor,
  type HeaderRecord,
  type HeaderValue,
  MODIFIERS,
  type ObservatoryInput,
  type ObservatoryScore,
  type TestName,
  type TestOutcome,
} from "./observatory/scoring.ts";

export function scoreObservatory(input: ObservatoryInput): ObservatoryScore {
  const page = readPage(input);
  const csp = contentSecurityPolicy(page);
  const hsts = strictTransportSecurity(page);
  const results: [TestName, string][] = [
    ["content-security-policy", csp.result],
    ["cookies", cookies(page, [...(input.otherSetCookies ?? []), ...setCookiesOf(input.corsPreflight?.headers ?? {})], hsts)],
    ["cross-origin-resource-sharing", crossOriginResourceSharing(input.corsPreflight)],
    ["redirection", redirection(input.httpRoute)],
    ["referrer-policy", referrerPolicy(page)],
    ["strict-transport-security", hsts],
    ["subresource-integrity", subresourceIntegrity(page, input.registrableDomain ?? ((host) => host))],
    ["x-content-type-options", xContentTypeOptions(page)],
    ["x-frame-options", xFrameOptions(page, csp)],
    ["cross-origin-resource-policy", crossOriginResourcePolicy(page)],
  ];
  const tests = results.map(([test, result]) => {
    const modifier = MODIFIERS[result];
    if (modifier === undefined) throw new Error(`no modifier for ${result}`);
    return { test, result, modifier };
  });
  const penalties = tests.reduce((sum, t) => sum + Math.min(t.modifier, 0), 0);
  const bonuses = tests.reduce((sum, t) => sum + Math.max(t.modifier, 0), 0);
  const scoreWithoutBonuses = 100 + penalties;
  const score = Math.max(0, scoreWithoutBonuses >= MINIMUM_SCORE_FOR_BONUSES ? scoreWithoutBonuses + bonuses : scoreWithoutBonuses);
  return { tests, scoreWithoutBonuses, score, grade: gradeFor(score) };
}
