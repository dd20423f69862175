/** The Content Security Policy test: the policies parsed as the Observatory's analyzer parses them, then judged. */

import { headerOf, type Page } from "./page.ts";

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

export interface CspOutcome {
  result: string;
  /** The combined policy, when it could be parsed and exists (X-Frame-Options reads it). */
  directives: Map<string, Set<string>> | null;
}

function splitPolicies(value: string | null): string[] {
  return value === null ? [] : value.split(",").map((policy) => policy.trim());
}

export function contentSecurityPolicy(page: Page): CspOutcome {
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
