/** What a scan gives: each test's outcome and modifier, the score and its grade, as the Observatory's method counts them. */

export type HeaderValue = string | readonly string[] | number | undefined;
export type HeaderRecord = Readonly<Record<string, HeaderValue>>;

export interface ObservatoryInput {
  /** Where the scanned page was fetched, e.g. https://www.example.com/portal/index.html (after redirects). */
  url: string;
  /** The page's response headers, names in any case; a header sent several times as an array. */
  headers: HeaderRecord;
  /** The page's body (read only when its Content-Type is HTML or absent). */
  body?: string;
  /**
   * The scan's http:// request: every URL it went through, first the http URL itself, last
   * where it ended (a single entry: it was answered without a redirect). `null`: nothing
   * answers http at all.
   */
  httpRoute: readonly string[] | null;
  /**
   * The scan's CORS preflight to the page's URL (OPTIONS with `Origin` and
   * `Access-Control-Request-Method: GET`): the Origin it sent and the answer's headers.
   * `null`: the preflight got no answer.
   */
  corsPreflight: { origin: string; headers: HeaderRecord } | null;
  /** Set-Cookie lines from the scan's other answers on https (redirects, /robots.txt). */
  otherSetCookies?: readonly string[];
  /** The registrable domain (eTLD+1) of a host. Default: the host itself (see above). */
  registrableDomain?: (host: string) => string;
}

export type TestName =
  | "content-security-policy"
  | "cookies"
  | "cross-origin-resource-sharing"
  | "redirection"
  | "referrer-policy"
  | "strict-transport-security"
  | "subresource-integrity"
  | "x-content-type-options"
  | "x-frame-options"
  | "cross-origin-resource-policy";

export interface TestOutcome {
  test: TestName;
  result: string;
  modifier: number;
}

export type Grade = "A+" | "A" | "A-" | "B+" | "B" | "B-" | "C+" | "C" | "C-" | "D+" | "D" | "D-" | "F";

export interface ObservatoryScore {
  tests: TestOutcome[];
  /** 100 plus the penalties: what the bonuses are conditional on. */
  scoreWithoutBonuses: number;
  score: number;
  grade: Grade;
}

/** Every outcome the page lists, with its modifier. */
export const MODIFIERS: Readonly<Record<string, number>> = {
  // Content Security Policy
  "csp-implemented-with-no-unsafe-default-src-none": 10,
  "csp-implemented-with-no-unsafe": 5,
  "csp-implemented-with-unsafe-inline-in-style-src-only": 0,
  "csp-implemented-but-duplicate-directives": 0,
  "csp-implemented-with-insecure-scheme-in-passive-content-only": -10,
  "csp-implemented-with-unsafe-eval": -10,
  "csp-implemented-with-unsafe-inline": -20,
  "csp-implemented-with-insecure-scheme": -20,
  "csp-header-invalid": -25,
  "csp-not-implemented": -25,
  "csp-not-implemented-but-reporting-enabled": -25,
  // Cookies
  "cookies-secure-with-httponly-sessions-and-samesite": 5,
  "cookies-secure-with-httponly-sessions": 0,
  "cookies-not-found": 0,
  "cookies-without-secure-flag-but-protected-by-hsts": -5,
  "cookies-session-without-secure-flag-but-protected-by-hsts": -10,
  "cookies-without-secure-flag": -20,
  "cookies-samesite-flag-invalid": -20,
  "cookies-anticsrf-without-samesite-flag": -20,
  "cookies-session-without-httponly-flag": -30,
  "cookies-session-without-secure-flag": -40,
  // Cross-origin Resource Sharing
  "cross-origin-resource-sharing-not-implemented": 0,
  "cross-origin-resource-sharing-implemented-with-public-access": 0,
  "cross-origin-resource-sharing-implemented-with-restricted-access": 0,
  "cross-origin-resource-sharing-implemented-with-universal-access": -50,
  // Redirection
  "redirection-all-redirects-preloaded": 0,
  "redirection-to-https": 0,
  "redirection-not-needed-no-http": 0,
  "redirection-off-host-from-http": -5,
  "redirection-not-to-https-on-initial-redirection": -10,
  "redirection-not-to-https": -20,
  "redirection-missing": -20,
  "redirection-invalid-cert": -20,
  // Referrer Policy
  "referrer-policy-private": 5,
  "referrer-policy-not-implemented": 0,
  "referrer-policy-unsafe": -5,
  "referrer-policy-header-invalid": -5,
  // Strict Transport Security
  "hsts-preloaded": 5,
  "hsts-implemented-max-age-at-least-six-months": 0,
  "hsts-implemented-max-age-less-than-six-months": -10,
  "hsts-not-implemented": -20,
  "hsts-header-invalid": -20,
  "hsts-not-implemented-no-https": -20,
  "hsts-invalid-cert": -20,
  // Subresource Integrity
  "sri-implemented-and-all-scripts-loaded-securely": 5,
  "sri-implemented-and-external-scripts-loaded-securely": 5,
  "sri-not-implemented-response-not-html": 0,
  "sri-not-implemented-but-no-scripts-loaded": 0,
  "sri-not-implemented-but-all-scripts-loaded-from-secure-origin": 0,
  "sri-not-implemented-but-external-scripts-loaded-securely": -5,
  "sri-implemented-but-external-scripts-not-loaded-securely": -20,
  "sri-not-implemented-and-external-scripts-not-loaded-securely": -50,
  // X-Content-Type-Options
  "x-content-type-options-nosniff": 0,
  "x-content-type-options-not-implemented": -5,
  "x-content-type-options-header-invalid": -5,
  // X-Frame-Options
  "x-frame-options-implemented-via-csp": 5,
  "x-frame-options-sameorigin-or-deny": 0,
  "x-frame-options-allow-from-origin": 0,
  "x-frame-options-not-implemented": -20,
  "x-frame-options-header-invalid": -20,
  // Cross-Origin Resource Policy
  "corp-not-implemented": 0,
  "corp-implemented-with-same-origin": 10,
  "corp-implemented-with-same-site": 10,
  "corp-implemented-with-cross-origin": 0,
  "corp-header-invalid": -5,
};

export const MINIMUM_SCORE_FOR_BONUSES = 90;
const GRADES: readonly [number, Grade][] = [
  [100, "A+"],
  [90, "A"],
  [85, "A-"],
  [80, "B+"],
  [70, "B"],
  [65, "B-"],
  [60, "C+"],
  [50, "C"],
  [45, "C-"],
  [40, "D+"],
  [30, "D"],
  [25, "D-"],
  [0, "F"],
];

export function gradeFor(score: number): Grade {
  const floored = Math.max(score, 0) - (Math.max(score, 0) % 5);
  return GRADES.find(([min]) => floored >= min)?.[1] ?? "F";
}

/* ------------------------------------------------------------------ headers and HTML */

/** The worse of two outcomes by their order in `order`, worst last. */
export function worse(current: string | null, candidate: string, order: readonly string[]): string {
  if (current === null) return candidate;
  return order.indexOf(candidate) > order.indexOf(current) ? candidate : current;
}
