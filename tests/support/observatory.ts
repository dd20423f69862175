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
import type { Element } from "domhandler";
import { DomUtils, parseDocument } from "htmlparser2";

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

const MINIMUM_SCORE_FOR_BONUSES = 90;
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

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);

/** A header's value as one string, as an HTTP client reads a header sent several times: joined with ", ". */
function headerOf(headers: HeaderRecord, name: string): string | null {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return Array.isArray(value) ? value.join(", ") : String(value);
  }
  return null;
}

function setCookiesOf(headers: HeaderRecord): string[] {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== "set-cookie" || value === undefined) continue;
    return Array.isArray(value) ? [...value] : [String(value)];
  }
  return [];
}

interface Page {
  url: URL;
  headers: HeaderRecord;
  isHtml: boolean;
  /** Every <script> element, in document order. */
  scripts: Element[];
  /** `<meta http-equiv="Content-Security-Policy">` contents, in order. */
  metaCsp: string[];
  /** The last `<meta name="referrer">` content, if any. */
  metaReferrer: string | null;
}

function readPage(input: ObservatoryInput): Page {
  const mime = (headerOf(input.headers, "content-type") ?? "").split(";")[0] ?? "";
  // No Content-Type at all still counts as HTML for scripts, but <meta> is read only from declared HTML.
  const isHtml = !mime || HTML_TYPES.has(mime);
  const page: Page = { url: new URL(input.url), headers: input.headers, isHtml, scripts: [], metaCsp: [], metaReferrer: null };
  if (!isHtml || !input.body) return page;
  const doc = parseDocument(input.body);
  page.scripts = DomUtils.getElementsByTagName("script", doc, true);
  if (!HTML_TYPES.has(mime)) return page;
  for (const meta of DomUtils.getElementsByTagName("meta", doc, true)) {
    const { attribs } = meta;
    if (attribs["http-equiv"] !== undefined && attribs.content !== undefined) {
      if (attribs["http-equiv"].trim().toLowerCase() === "content-security-policy") page.metaCsp.push(attribs.content);
    } else if (attribs.name?.trim().toLowerCase() === "referrer" && attribs.content !== undefined) {
      page.metaReferrer = attribs.content;
    }
  }
  return page;
}

/* ------------------------------------------------------------------ CSP parsing */

/** The shortest policy the Observatory accepts is one as long as "img-src" minus one. */
const SHORTEST_POLICY = "img-src".length - 1;
const REPEATABLE_DIRECTIVES = new Set(["report-uri", "report-to"]);
const HEADER_ONLY_DIRECTIVES = ["frame-ancestors", "report-uri", "sandbox"];

export class CspSyntaxError extends Error {}

export interface ParsedCsp {
  /** Directive (lower case) to its sources (lower case). A source list left empty is `'none'`. */
  directives: Map<string, Set<string>>;
  /** report-uri / report-to named more than once in one policy (allowed, but reported). */
  repeated: Set<string>;
}

interface SourceEntry {
  source: string;
  policy: number;
  keep: boolean;
}

const compareSources = new Intl.Collator("en").compare;

/** Whether `a` and `b` name the same path, `a` ending in "/" matching everything below it. */
function samePath(a: string, b: string): boolean {
  if (a === "") return true;
  if (a === "/" && b === "") return true;
  const prefixOnly = a.endsWith("/");
  const left = a.split("/");
  const right = b.split("/");
  if (left.length > right.length || (!prefixOnly && left.length !== right.length)) return false;
  if (prefixOnly) left.pop();
  return left.every((piece, i) => decodeURIComponent(piece) === decodeURIComponent(right[i] ?? ""));
}

/**
 * Parses one or more policies (each header value, split at commas, is one policy). Several
 * policies are combined as the Observatory combines them: a source of a later policy counts
 * only when an earlier one allows it too. Throws CspSyntaxError for what the Observatory
 * calls an invalid header: an empty or too short policy, or a directive repeated within one
 * policy (report-uri and report-to excepted).
 */
export function parseCsp(policies: readonly string[]): ParsedCsp {
  const cleaned = policies.map((policy) => policy.replace(/[\r\n]/g, "").trim());
  const combined = new Map<string, SourceEntry[]>();
  const repeated = new Set<string>();
  for (const policy of cleaned) {
    if (policy.length < SHORTEST_POLICY) throw new CspSyntaxError(`policy too short: "${policy}"`);
  }
  cleaned.forEach((policy, index) => {
    const first = index === 0;
    const seen = new Set<string>();
    for (const part of policy.split(";")) {
      const [rawName, ...rawSources] = part.trim().split(/\s+/);
      if (!rawName) continue;
      const name = rawName.toLowerCase();
      if (seen.has(name)) {
        if (!REPEATABLE_DIRECTIVES.has(name)) throw new CspSyntaxError(`directive ${name} repeated in policy ${index}`);
        repeated.add(name);
      }
      seen.add(name);

      const own: SourceEntry[] = rawSources.map((source) => ({ source: source.toLocaleLowerCase(), policy: index, keep: first }));
      if (own.length === 0 && name.endsWith("-src")) own.push({ source: "'none'", policy: index, keep: first });
      const entries = first ? own : [...(combined.get(name) ?? []), ...own];
      entries.sort((a, b) => compareSources(a.source, b.source));
      for (let i = 1; i < entries.length; i++) {
        const previous = entries[i - 1] as SourceEntry;
        const entry = entries[i] as SourceEntry;
        // Within one policy a source that merely extends the one before it adds nothing.
        if (entry.policy === previous.policy && entry.source.startsWith(previous.source)) entry.keep = false;
        // Across policies a source survives only when both policies name it.
        if (entry.policy !== previous.policy && samePath(previous.source, entry.source)) entry.keep = true;
      }
      const kept = entries.filter((entry) => entry.keep);
      combined.set(name, kept);
      // With more policies to come, the first policy's sources must be confirmed by them.
      if (first && cleaned.length > 1) for (const entry of kept) entry.keep = false;
    }
  });
  const directives = new Map<string, Set<string>>();
  for (const [name, entries] of combined) {
    directives.set(name, entries.length ? new Set(entries.map((entry) => entry.source)) : new Set(["'none'"]));
  }
  return { directives, repeated };
}

/* ------------------------------------------------------------------ the tests */

const DANGEROUSLY_BROAD = new Set(["ftp:", "http:", "https:", "*", "http://*", "http://*.*", "https://*", "https://*.*"]);
const UNSAFE_INLINE = new Set(["'unsafe-inline'", "data:"]);
const BROAD_OR_INLINE = new Set([...DANGEROUSLY_BROAD, ...UNSAFE_INLINE]);
const PASSIVE_DIRECTIVES = ["img-src", "media-src"];
const NONCE_OR_HASH = ["'sha256-", "'sha384-", "'sha512-", "'nonce-"];

const hasNonceOrHash = (sources: Set<string>) => [...sources].some((source) => NONCE_OR_HASH.some((p) => source.startsWith(p)));
const isInsecureScheme = (source: string) => source.startsWith("http:") || source.startsWith("ftp:");

interface CspOutcome {
  result: string;
  /** The combined policy, when it could be parsed and exists (X-Frame-Options reads it). */
  directives: Map<string, Set<string>> | null;
}

function splitPolicies(value: string | null): string[] {
  return value === null ? [] : value.split(",").map((policy) => policy.trim());
}

function contentSecurityPolicy(page: Page): CspOutcome {
  const headerPolicies = splitPolicies(headerOf(page.headers, "content-security-policy"));
  const metaPolicies = page.metaCsp.flatMap((content) => splitPolicies(content));

  let csp: ParsedCsp;
  try {
    csp = parseCsp([...headerPolicies, ...metaPolicies]);
  } catch {
    return { result: "csp-header-invalid", directives: null };
  }
  const headerOnlySize = tryParse(headerPolicies)?.directives.size ?? 0;
  const metaOnly = tryParse(metaPolicies)?.directives ?? new Map<string, Set<string>>();
  for (const directive of HEADER_ONLY_DIRECTIVES) metaOnly.delete(directive);
  if (headerOnlySize + metaOnly.size === 0) {
    const reportOnly = headerOf(page.headers, "content-security-policy-report-only");
    return { result: reportOnly ? "csp-not-implemented-but-reporting-enabled" : "csp-not-implemented", directives: null };
  }

  const { directives } = csp;
  const https = page.url.protocol === "https:";
  const fallback = (name: string) => directives.get(name) ?? directives.get("default-src") ?? new Set(["*"]);
  // These are the policy's own sets (or default-src's): the adjustments below apply to them in place.
  const objectSrc = fallback("object-src");
  const scriptSrc = fallback("script-src");
  const styleSrc = fallback("style-src");

  let result: string | null = null;
  const fail = (outcome: string) => {
    result ??= outcome;
  };

  // A nonce or hash makes browsers ignore 'unsafe-inline' (it is only there for old ones).
  for (const sources of [scriptSrc, styleSrc]) {
    if (hasNonceOrHash(sources)) sources.delete("'unsafe-inline'");
  }
  // 'strict-dynamic' with a nonce or hash makes browsers ignore host and scheme sources,
  // 'self' and 'unsafe-inline'; without one it is a mistake.
  if (scriptSrc.has("'strict-dynamic'")) {
    if (hasNonceOrHash(scriptSrc)) {
      for (const source of scriptSrc) {
        const ignored =
          [...DANGEROUSLY_BROAD].some((broad) => source.startsWith(broad)) || source === "'self'" || source === "'unsafe-inline'";
        if (ignored) scriptSrc.delete(source);
      }
    } else {
      fail("csp-header-invalid");
    }
  }

  // Active content: every directive but the passive ones, script-src as adjusted above.
  const activeSources = [...directives]
    .filter(([name]) => !PASSIVE_DIRECTIVES.includes(name) && name !== "script-src")
    .flatMap(([, sources]) => [...sources]);
  activeSources.push(...scriptSrc);
  const passiveSources = PASSIVE_DIRECTIVES.flatMap((name) => [...(directives.get(name) ?? directives.get("default-src") ?? [])]);

  // In the order the Observatory checks them; the first failure found is the outcome.
  if ([...scriptSrc].some((s) => BROAD_OR_INLINE.has(s)) || [...objectSrc].some((s) => DANGEROUSLY_BROAD.has(s))) {
    fail("csp-implemented-with-unsafe-inline");
  }
  if (https && activeSources.some(isInsecureScheme)) fail("csp-implemented-with-insecure-scheme");
  if (scriptSrc.has("'unsafe-eval'") || styleSrc.has("'unsafe-eval'")) fail("csp-implemented-with-unsafe-eval");
  if (https && passiveSources.some(isInsecureScheme)) fail("csp-implemented-with-insecure-scheme-in-passive-content-only");
  if ([...styleSrc].some((s) => BROAD_OR_INLINE.has(s))) fail("csp-implemented-with-unsafe-inline-in-style-src-only");
  const defaultSrc = directives.get("default-src");
  if (defaultSrc?.has("'none'") && defaultSrc.size === 1) fail("csp-implemented-with-no-unsafe-default-src-none");
  else fail("csp-implemented-with-no-unsafe");

  const outcome = result ?? "csp-implemented-with-no-unsafe";
  const passes = [
    "csp-implemented-with-no-unsafe",
    "csp-implemented-with-no-unsafe-default-src-none",
    "csp-implemented-with-unsafe-inline-in-style-src-only",
    "csp-implemented-with-insecure-scheme-in-passive-content-only",
  ].includes(outcome);
  // A passing policy that repeats report-uri or report-to loses its bonus.
  return { result: passes && csp.repeated.size > 0 ? "csp-implemented-but-duplicate-directives" : outcome, directives };
}

function tryParse(policies: readonly string[]): ParsedCsp | null {
  try {
    return parseCsp(policies);
  } catch {
    return null;
  }
}

/** Six months is 15768000 s; the Observatory accepts the common 180 days (15552000 s). */
const SIX_MONTHS = 15_552_000;

function strictTransportSecurity(page: Page): string {
  if (page.url.protocol !== "https:") return "hsts-not-implemented-no-https";
  const header = headerOf(page.headers, "strict-transport-security");
  if (header === null) return "hsts-not-implemented";
  const value = header.slice(0, 1024);
  // A comma means the header was sent more than once.
  if (value.includes(",")) return "hsts-header-invalid";
  let maxAge: number | null = null;
  for (const parameter of value.split(";").map((p) => p.trim().toLowerCase())) {
    // As the Observatory reads it: parseInt of whatever follows "max-age=" (so a value it
    // cannot read as a number is not rejected here either).
    if (parameter.startsWith("max-age=")) maxAge = Number.parseInt(parameter.slice(8, 128), 10);
  }
  if (maxAge === null) return "hsts-header-invalid";
  return maxAge < SIX_MONTHS ? "hsts-implemented-max-age-less-than-six-months" : "hsts-implemented-max-age-at-least-six-months";
}

interface Cookie {
  name: string;
  secure: boolean;
  httpOnly: boolean;
  /** Lower case; null when the attribute is absent. */
  sameSite: string | null;
}

/** A Set-Cookie line as a cookie jar stores it; null when a jar would ignore it. */
function parseSetCookie(line: string): Cookie | null {
  const [pair = "", ...attributes] = line.split(";");
  const eq = pair.indexOf("=");
  const name = eq === -1 ? "" : pair.slice(0, eq).trim();
  if (!name) return null;
  const cookie: Cookie = { name, secure: false, httpOnly: false, sameSite: null };
  for (const attribute of attributes) {
    const at = attribute.indexOf("=");
    const key = (at === -1 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value =
      at === -1
        ? ""
        : attribute
            .slice(at + 1)
            .trim()
            .toLowerCase();
    if (key === "secure") cookie.secure = true;
    else if (key === "httponly") cookie.httpOnly = true;
    else if (key === "samesite") cookie.sameSite = value;
  }
  return cookie;
}

/** SameSite present without a value, or with one other than Lax, Strict or None. */
function hasInvalidSameSite(line: string): boolean {
  return line
    .trim()
    .split(";")
    .some((part) => {
      const [key = "", value] = part.trim().split("=");
      if (key.trim().toLowerCase() !== "samesite") return false;
      return !value || !["lax", "strict", "none"].includes(value.trim().toLowerCase());
    });
}

/** Worst last: a later outcome replaces an earlier one, never the other way round. */
const COOKIE_SEVERITY = [
  "cookies-without-secure-flag-but-protected-by-hsts",
  "cookies-without-secure-flag",
  "cookies-session-without-secure-flag-but-protected-by-hsts",
  "cookies-samesite-flag-invalid",
  "cookies-anticsrf-without-samesite-flag",
  "cookies-session-without-httponly-flag",
  "cookies-session-without-secure-flag",
];

function worse(current: string | null, candidate: string, order: readonly string[]): string {
  if (current === null) return candidate;
  return order.indexOf(candidate) > order.indexOf(current) ? candidate : current;
}

/** A session cookie's name contains "login" or "sess"; an anti-CSRF token's contains "csrf". */
function cookies(page: Page, otherSetCookies: readonly string[], hstsResult: string): string {
  const hsts = hstsResult === "hsts-implemented-max-age-at-least-six-months" || hstsResult === "hsts-preloaded";
  const pageLines = setCookiesOf(page.headers);
  let result: string | null = null;
  for (const line of pageLines) {
    if (hasInvalidSameSite(line)) result = worse(result, "cookies-samesite-flag-invalid", COOKIE_SEVERITY);
  }
  // The jar keeps one cookie per name (the last one set); the Observatory ignores Heroku's affinity cookie.
  const jar = new Map<string, Cookie>();
  for (const line of [...pageLines, ...otherSetCookies]) {
    const cookie = parseSetCookie(line);
    if (cookie && cookie.name !== "heroku-session-affinity") jar.set(cookie.name, cookie);
  }
  if (jar.size === 0) return "cookies-not-found";

  let missingSameSite = false;
  for (const cookie of jar.values()) {
    const name = cookie.name.toLowerCase();
    const session = name.includes("login") || name.includes("sess");
    const antiCsrf = name.includes("csrf");
    if (!cookie.secure && cookie.sameSite === "none") result = worse(result, "cookies-samesite-flag-invalid", COOKIE_SEVERITY);
    if (!cookie.secure) {
      result = worse(result, hsts ? "cookies-without-secure-flag-but-protected-by-hsts" : "cookies-without-secure-flag", COOKIE_SEVERITY);
    }
    if (antiCsrf && !cookie.sameSite) result = worse(result, "cookies-anticsrf-without-samesite-flag", COOKIE_SEVERITY);
    if (session && !cookie.secure) {
      const outcome = hsts ? "cookies-session-without-secure-flag-but-protected-by-hsts" : "cookies-session-without-secure-flag";
      result = worse(result, outcome, COOKIE_SEVERITY);
    }
    if (session && !cookie.httpOnly) result = worse(result, "cookies-session-without-httponly-flag", COOKIE_SEVERITY);
    if (!cookie.sameSite) missingSameSite = true;
  }
  return result ?? (missingSameSite ? "cookies-secure-with-httponly-sessions" : "cookies-secure-with-httponly-sessions-and-samesite");
}

/** Credentialed access granted to whatever Origin asks is the failure; `*` is public, anything else restricted. */
function crossOriginResourceSharing(preflight: ObservatoryInput["corsPreflight"]): string {
  const allowOrigin = preflight ? headerOf(preflight.headers, "access-control-allow-origin") : null;
  if (!preflight || !allowOrigin) return "cross-origin-resource-sharing-not-implemented";
  if (allowOrigin.slice(0, 256).trim().toLowerCase() === "*") return "cross-origin-resource-sharing-implemented-with-public-access";
  const credentials = headerOf(preflight.headers, "access-control-allow-credentials");
  if (allowOrigin === preflight.origin && credentials?.trim().toLowerCase() === "true") {
    return "cross-origin-resource-sharing-implemented-with-universal-access";
  }
  return "cross-origin-resource-sharing-implemented-with-restricted-access";
}

function redirection(route: readonly string[] | null): string {
  if (route === null) return "redirection-not-needed-no-http";
  const urls = route.map((url) => new URL(url));
  const [start, next] = urls;
  if (urls.length <= 1 || !start || !next) return "redirection-missing";
  if (urls.at(-1)?.protocol !== "https:") return "redirection-not-to-https";
  if (next.protocol === "http:") return "redirection-not-to-https-on-initial-redirection";
  if (start.protocol === "http:" && next.protocol === "https:" && start.hostname !== next.hostname) return "redirection-off-host-from-http";
  return "redirection-to-https";
}

const PRIVATE_REFERRERS = ["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"];
const UNSAFE_REFERRERS = ["origin", "origin-when-cross-origin", "unsafe-url", "no-referrer-when-downgrade"];

/** The header and `<meta name="referrer">` together; the last policy a browser knows wins. */
function referrerPolicy(page: Page): string {
  const values = [headerOf(page.headers, "referrer-policy"), page.metaReferrer].filter((v): v is string => v !== null);
  if (values.length === 0) return "referrer-policy-not-implemented";
  const known = values
    .join(", ")
    .split(",")
    .map((token) => token.trim().toLowerCase())
    .filter((token) => PRIVATE_REFERRERS.includes(token) || UNSAFE_REFERRERS.includes(token));
  const policy = known.at(-1) ?? "";
  if (PRIVATE_REFERRERS.includes(policy)) return "referrer-policy-private";
  if (UNSAFE_REFERRERS.includes(policy)) return "referrer-policy-unsafe";
  return "referrer-policy-header-invalid";
}

/** Worst last, as for cookies. */
const SRI_SEVERITY = [
  "sri-implemented-and-all-scripts-loaded-securely",
  "sri-implemented-and-external-scripts-loaded-securely",
  "sri-implemented-but-external-scripts-not-loaded-securely",
  "sri-not-implemented-but-external-scripts-loaded-securely",
  "sri-not-implemented-and-external-scripts-not-loaded-securely",
  "sri-not-implemented-response-not-html",
];

/**
 * Scripts by `src`: a relative URL is this origin; a protocol-relative one (`//host/…`) is
 * foreign and insecure; a full URL is the same site when its registrable domain is the
 * page's. Same-site scripts need no integrity (but earn the bonus with it, over https);
 * foreign ones need integrity and https.
 */
function subresourceIntegrity(page: Page, registrableDomain: (host: string) => string): string {
  if (!page.isHtml) return "sri-not-implemented-response-not-html";
  if (page.scripts.length === 0) return "sri-not-implemented-but-no-scripts-loaded";
  const https = page.url.protocol === "https:";
  const siteDomain = registrableDomain(page.url.hostname);
  let result: string | null = null;
  let foreignScripts = false;
  for (const script of page.scripts) {
    if (!script.attribs.src) continue;
    const src = script.attribs.src.trim();
    const integrity = Boolean(script.attribs.integrity);
    const protocolRelative = /^\/\/[^/]/.test(src);
    const fullUrl = /^https?:\/\//i.test(src);
    const relative = !protocolRelative && !fullUrl;
    const scheme = fullUrl ? new URL(src).protocol : null;
    const sameSite = protocolRelative || relative || (fullUrl && registrableDomain(new URL(src).hostname) === siteDomain);
    const secureOrigin = relative || (sameSite && !protocolRelative);
    const secureScheme = scheme === "https:" || (relative && https);
    if (secureOrigin) {
      if (integrity && secureScheme && result === null) result = "sri-implemented-and-all-scripts-loaded-securely";
      continue;
    }
    foreignScripts = true;
    if (integrity && !secureScheme) result = worse(result, "sri-implemented-but-external-scripts-not-loaded-securely", SRI_SEVERITY);
    else if (!integrity && secureScheme) result = worse(result, "sri-not-implemented-but-external-scripts-loaded-securely", SRI_SEVERITY);
    else if (!integrity) result = worse(result, "sri-not-implemented-and-external-scripts-not-loaded-securely", SRI_SEVERITY);
  }
  if (result !== null) return result;
  return foreignScripts
    ? "sri-implemented-and-external-scripts-loaded-securely"
    : "sri-not-implemented-but-all-scripts-loaded-from-secure-origin";
}

function xContentTypeOptions(page: Page): string {
  const header = headerOf(page.headers, "x-content-type-options");
  if (!header) return "x-content-type-options-not-implemented";
  return header.slice(0, 256).trim().toLowerCase() === "nosniff"
    ? "x-content-type-options-nosniff"
    : "x-content-type-options-header-invalid";
}

/** A CSP frame-ancestors directive (in any policy the CSP test could read) supersedes the header. */
function xFrameOptions(page: Page, csp: CspOutcome): string {
  if (csp.directives?.has("frame-ancestors")) return "x-frame-options-implemented-via-csp";
  const header = headerOf(page.headers, "x-frame-options");
  if (!header) return "x-frame-options-not-implemented";
  const value = header.slice(0, 1024).trim().toLowerCase();
  if (value === "deny" || value === "sameorigin") return "x-frame-options-sameorigin-or-deny";
  if (value.startsWith("allow-from")) return "x-frame-options-allow-from-origin";
  return "x-frame-options-header-invalid";
}

function crossOriginResourcePolicy(page: Page): string {
  const header = headerOf(page.headers, "cross-origin-resource-policy");
  if (!header) return "corp-not-implemented";
  switch (header.slice(0, 256).trim().toLowerCase()) {
    case "same-origin":
      return "corp-implemented-with-same-origin";
    case "same-site":
      return "corp-implemented-with-same-site";
    case "cross-origin":
      return "corp-implemented-with-cross-origin";
    default:
      return "corp-header-invalid";
  }
}

/* ------------------------------------------------------------------ the score */

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
