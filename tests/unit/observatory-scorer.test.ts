/**
 * The Observatory scorer on literal header sets: it must reproduce the published modifiers
 * and grades, and notice when a header this site relies on is weakened or dropped.
 */
import { describe, expect, it } from "vitest";
import { gradeFor, type HeaderRecord, type ObservatoryInput, parseCsp, scoreObservatory } from "../support/observatory.ts";

const URL_ = "https://www.example.com/portal/index.html";
const CSP =
  "default-src 'self'; script-src 'self' 'sha256-AbC='; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data: https:; " +
  "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'; upgrade-insecure-requests";

/** The headers the site sends over https. */
const OURS: HeaderRecord = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": CSP,
  "strict-transport-security": "max-age=63072000; includeSubDomains",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-content-type-options": "nosniff",
  "x-frame-options": "SAMEORIGIN",
  "cross-origin-resource-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
};
const HTML = '<!doctype html><html><head><script type="module" src="/assets/index.js"></script></head><body></body></html>';

function score(headers: HeaderRecord, overrides: Partial<ObservatoryInput> = {}) {
  return scoreObservatory({
    url: URL_,
    headers,
    body: HTML,
    httpRoute: ["http://www.example.com/", "https://www.example.com/", URL_],
    corsPreflight: { origin: "https://http-observatory.security.mozilla.org", headers: {} },
    ...overrides,
  });
}
const without = (name: string, headers: HeaderRecord = OURS) => Object.fromEntries(Object.entries(headers).filter(([k]) => k !== name));
const withHeader = (name: string, value: string, headers: HeaderRecord = OURS) => ({ ...headers, [name]: value });
const resultOf = (s: ReturnType<typeof score>, test: string) => s.tests.find((t) => t.test === test)?.result;
const cspResult = (policy: string, extra: Partial<ObservatoryInput> = {}) =>
  resultOf(score(withHeader("content-security-policy", policy), extra), "content-security-policy");

describe("grading", () => {
  it("grades the site's own headers A+ with 125 points", () => {
    const s = score(OURS);
    expect(s.tests.map((t) => [t.test, t.result, t.modifier])).toEqual([
      ["content-security-policy", "csp-implemented-with-no-unsafe", 5],
      ["cookies", "cookies-not-found", 0],
      ["cross-origin-resource-sharing", "cross-origin-resource-sharing-not-implemented", 0],
      ["redirection", "redirection-to-https", 0],
      ["referrer-policy", "referrer-policy-private", 5],
      ["strict-transport-security", "hsts-implemented-max-age-at-least-six-months", 0],
      ["subresource-integrity", "sri-not-implemented-but-all-scripts-loaded-from-secure-origin", 0],
      ["x-content-type-options", "x-content-type-options-nosniff", 0],
      ["x-frame-options", "x-frame-options-implemented-via-csp", 5],
      ["cross-origin-resource-policy", "corp-implemented-with-same-origin", 10],
    ]);
    expect(s).toMatchObject({ scoreWithoutBonuses: 100, score: 125, grade: "A+" });
  });

  it("uses the published grade chart, rounding down to a multiple of 5", () => {
    const cases: [number, string][] = [
      [145, "A+"],
      [100, "A+"],
      [99, "A"],
      [90, "A"],
      [89, "A-"],
      [85, "A-"],
      [84, "B+"],
      [80, "B+"],
      [79, "B"],
      [70, "B"],
      [69, "B-"],
      [65, "B-"],
      [64, "C+"],
      [60, "C+"],
      [59, "C"],
      [50, "C"],
      [49, "C-"],
      [45, "C-"],
      [44, "D+"],
      [40, "D+"],
      [39, "D"],
      [30, "D"],
      [29, "D-"],
      [25, "D-"],
      [24, "F"],
      [0, "F"],
      [-30, "F"],
    ];
    for (const [points, grade] of cases) expect(gradeFor(points), String(points)).toBe(grade);
  });

  it("adds bonuses only when the score without them is at least 90", () => {
    // HSTS missing: 100 - 20 = 80, so the 25 bonus points are not counted.
    expect(score(without("strict-transport-security"))).toMatchObject({ scoreWithoutBonuses: 80, score: 80, grade: "B+" });
    // HSTS under six months: 100 - 10 = 90, so they are.
    const short = score(withHeader("strict-transport-security", "max-age=86400"));
    expect(short).toMatchObject({ scoreWithoutBonuses: 90, score: 115, grade: "A+" });
  });

  it("never goes below 0", () => {
    const origin = "https://http-observatory.security.mozilla.org";
    const s = score(
      { "content-type": "text/html", "set-cookie": "sessionid=1" },
      {
        url: "http://www.example.com/",
        httpRoute: ["http://www.example.com/"],
        corsPreflight: { origin, headers: { "access-control-allow-origin": origin, "access-control-allow-credentials": "true" } },
      },
    );
    // 100 - 25 (CSP) - 40 (cookies) - 50 (CORS) - 20 (redirection) - 20 (HSTS) - 5 (nosniff) - 20 (framing) < 0
    expect(s.scoreWithoutBonuses).toBe(-80);
    expect(s).toMatchObject({ score: 0, grade: "F" });
  });
});

describe("regressions the scorer catches", () => {
  it("removing HSTS costs 20 points and the bonuses: A+ becomes B+", () => {
    const s = score(without("strict-transport-security"));
    expect(resultOf(s, "strict-transport-security")).toBe("hsts-not-implemented");
    expect(s.grade).toBe("B+");
  });

  it("adding 'unsafe-inline' to script-src costs 20 points and the bonuses: A+ becomes B+", () => {
    const policy = CSP.replace("script-src 'self' 'sha256-AbC='", "script-src 'self' 'unsafe-inline'");
    const s = score(withHeader("content-security-policy", policy));
    expect(resultOf(s, "content-security-policy")).toBe("csp-implemented-with-unsafe-inline");
    expect(s).toMatchObject({ scoreWithoutBonuses: 80, score: 80, grade: "B+" });
  });

  it("dropping X-Content-Type-Options costs 5 points: 125 becomes 120, and without bonuses A+ becomes A", () => {
    const s = score(without("x-content-type-options"));
    expect(resultOf(s, "x-content-type-options")).toBe("x-content-type-options-not-implemented");
    expect(s.score).toBe(120);
    // Only the penalty-free headers, no bonus headers: exactly 100 (A+), then 95 (A).
    const plain: HeaderRecord = {
      "content-type": "text/html",
      "content-security-policy": "default-src 'self'; style-src 'self' 'unsafe-inline'",
      "strict-transport-security": "max-age=31536000",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
    };
    expect(score(plain)).toMatchObject({ score: 100, grade: "A+" });
    expect(score(without("x-content-type-options", plain))).toMatchObject({ score: 95, grade: "A" });
  });

  it("dropping frame-ancestors falls back to X-Frame-Options; dropping both costs 20 points: A+ becomes B+", () => {
    const noAncestors = CSP.replace("; frame-ancestors 'self'", "");
    expect(resultOf(score(withHeader("content-security-policy", noAncestors)), "x-frame-options")).toBe(
      "x-frame-options-sameorigin-or-deny",
    );
    const neither = without("x-frame-options", withHeader("content-security-policy", noAncestors));
    expect(score(neither)).toMatchObject({ grade: "B+" });
  });
});

describe("Content Security Policy", () => {
  it("parses directives and sources case-insensitively, an empty source list as 'none'", () => {
    const { directives } = parseCsp(["Default-Src 'SELF'; img-src; frame-ancestors"]);
    expect(directives.get("default-src")).toEqual(new Set(["'self'"]));
    expect(directives.get("img-src")).toEqual(new Set(["'none'"]));
    expect(directives.get("frame-ancestors")).toEqual(new Set(["'none'"]));
  });

  it("gives the default-src 'none' bonus only to exactly 'none'", () => {
    expect(cspResult("default-src 'none'; script-src 'self'; style-src 'self'; form-action 'self'")).toBe(
      "csp-implemented-with-no-unsafe-default-src-none",
    );
    expect(cspResult("default-src 'none' 'self'; script-src 'self'")).toBe("csp-implemented-with-no-unsafe");
  });

  it("allows 'unsafe-inline', data: and broad sources in style-src for 0 points", () => {
    expect(cspResult("default-src 'self'; style-src 'self' 'unsafe-inline'")).toBe("csp-implemented-with-unsafe-inline-in-style-src-only");
    expect(cspResult("default-src 'self'; style-src https:")).toBe("csp-implemented-with-unsafe-inline-in-style-src-only");
    // style-src-attr is not style-src: the site's inline style attributes cost nothing.
    expect(cspResult("default-src 'self'; style-src-attr 'unsafe-inline'")).toBe("csp-implemented-with-no-unsafe");
  });

  it("falls back to default-src, and treats a missing script-src or object-src as allowing everything", () => {
    expect(cspResult("default-src 'self' 'unsafe-inline'")).toBe("csp-implemented-with-unsafe-inline");
    expect(cspResult("img-src 'self'")).toBe("csp-implemented-with-unsafe-inline");
    expect(cspResult("default-src 'self'; object-src https:")).toBe("csp-implemented-with-unsafe-inline");
    expect(cspResult("default-src 'self'; script-src 'self' data:")).toBe("csp-implemented-with-unsafe-inline");
  });

  it("ignores 'unsafe-inline' next to a hash or nonce, and requires one for 'strict-dynamic'", () => {
    expect(cspResult("default-src 'self'; script-src 'self' 'unsafe-inline' 'sha256-x='")).toBe("csp-implemented-with-no-unsafe");
    expect(cspResult("default-src 'self'; script-src 'nonce-abc' 'strict-dynamic' https: 'unsafe-inline'")).toBe(
      "csp-implemented-with-no-unsafe",
    );
    expect(cspResult("default-src 'self'; script-src 'strict-dynamic'")).toBe("csp-header-invalid");
  });

  it("penalises 'unsafe-eval' and http: sources on an https site, active ones more than passive ones", () => {
    expect(cspResult("default-src 'self'; script-src 'self' 'unsafe-eval'")).toBe("csp-implemented-with-unsafe-eval");
    expect(cspResult("default-src 'self'; connect-src http://api.example.com")).toBe("csp-implemented-with-insecure-scheme");
    expect(cspResult("default-src 'self'; img-src http://img.example.com")).toBe(
      "csp-implemented-with-insecure-scheme-in-passive-content-only",
    );
    expect(cspResult("default-src 'self'; img-src http:", { url: "http://www.example.com/" })).toBe("csp-implemented-with-no-unsafe");
  });

  it("reports the first failure in the Observatory's order", () => {
    expect(cspResult("default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'")).toBe("csp-implemented-with-unsafe-inline");
  });

  it("treats repeated directives and empty policies as invalid, repeated report-uri as a lost bonus", () => {
    expect(cspResult("default-src 'self'; default-src 'none'")).toBe("csp-header-invalid");
    expect(cspResult("default-src 'self',")).toBe("csp-header-invalid");
    expect(cspResult("default-src 'self'; report-uri /a; report-uri /b")).toBe("csp-implemented-but-duplicate-directives");
  });

  it("keeps only the sources every policy allows when several are sent", () => {
    const { directives } = parseCsp(["default-src 'self' https://cdn.example.com", "default-src 'self'"]);
    expect(directives.get("default-src")).toEqual(new Set(["'self'"]));
    // Two headers: the second one cannot loosen the first (script-src it alone names ends up 'none').
    const two = score({ ...OURS, "content-security-policy": ["default-src 'self'", "script-src 'self' 'unsafe-inline'"] });
    expect(resultOf(two, "content-security-policy")).toBe("csp-implemented-with-no-unsafe");
  });

  it("reads <meta http-equiv> policies, but not frame-ancestors from them", () => {
    const meta = `<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self'; frame-ancestors 'none'"></head></html>`;
    const s = score(without("content-security-policy"), { body: meta });
    expect(resultOf(s, "content-security-policy")).toBe("csp-implemented-with-no-unsafe");
    const onlyAncestors = `<html><head><meta http-equiv="Content-Security-Policy" content="frame-ancestors 'none'"></head></html>`;
    expect(resultOf(score(without("content-security-policy"), { body: onlyAncestors }), "content-security-policy")).toBe(
      "csp-not-implemented",
    );
  });

  it("scores a missing policy -25, report-only included", () => {
    expect(resultOf(score(without("content-security-policy")), "content-security-policy")).toBe("csp-not-implemented");
    const reportOnly = withHeader("content-security-policy-report-only", "default-src 'none'", without("content-security-policy"));
    expect(resultOf(score(reportOnly), "content-security-policy")).toBe("csp-not-implemented-but-reporting-enabled");
  });
});

describe("the other tests", () => {
  it("Strict-Transport-Security: six months (180 days accepted), invalid forms, http sites", () => {
    const hsts = (value: string) => resultOf(score(withHeader("strict-transport-security", value)), "strict-transport-security");
    expect(hsts("max-age=15552000")).toBe("hsts-implemented-max-age-at-least-six-months");
    expect(hsts("max-age=15551999")).toBe("hsts-implemented-max-age-less-than-six-months");
    expect(hsts("includeSubDomains")).toBe("hsts-header-invalid");
    expect(hsts("max-age=63072000, max-age=63072000")).toBe("hsts-header-invalid");
    expect(resultOf(score(OURS, { url: "http://www.example.com/" }), "strict-transport-security")).toBe("hsts-not-implemented-no-https");
  });

  it("Referrer-Policy: the last policy known wins, header then <meta name=referrer>", () => {
    const referrer = (value: string, body = HTML) => resultOf(score(withHeader("referrer-policy", value), { body }), "referrer-policy");
    expect(referrer("no-referrer, unsafe-url")).toBe("referrer-policy-unsafe");
    expect(referrer("unsafe-url, strict-origin")).toBe("referrer-policy-private");
    expect(referrer("nonsense")).toBe("referrer-policy-header-invalid");
    expect(referrer("no-referrer", '<meta name="referrer" content="unsafe-url">')).toBe("referrer-policy-unsafe");
    expect(resultOf(score(without("referrer-policy")), "referrer-policy")).toBe("referrer-policy-not-implemented");
  });

  it("Cross-Origin-Resource-Policy and X-Content-Type-Options values", () => {
    const corp = (value: string) => resultOf(score(withHeader("cross-origin-resource-policy", value)), "cross-origin-resource-policy");
    expect(corp("same-site")).toBe("corp-implemented-with-same-site");
    expect(corp("cross-origin")).toBe("corp-implemented-with-cross-origin");
    expect(corp("same")).toBe("corp-header-invalid");
    expect(resultOf(score(withHeader("x-content-type-options", "sniff")), "x-content-type-options")).toBe(
      "x-content-type-options-header-invalid",
    );
  });

  it("Subresource Integrity: same-origin scripts need none; foreign ones need it and https", () => {
    const sri = (body: string, headers = OURS) => resultOf(score(headers, { body }), "subresource-integrity");
    expect(sri("<p>no scripts</p>")).toBe("sri-not-implemented-but-no-scripts-loaded");
    expect(sri('<script src="/a.js" integrity="sha384-x"></script>')).toBe("sri-implemented-and-all-scripts-loaded-securely");
    expect(sri('<script src="https://www.example.com/a.js"></script>')).toBe(
      "sri-not-implemented-but-all-scripts-loaded-from-secure-origin",
    );
    expect(sri('<script src="https://cdn.other.net/a.js"></script>')).toBe("sri-not-implemented-but-external-scripts-loaded-securely");
    expect(sri('<script src="https://cdn.other.net/a.js" integrity="sha384-x"></script>')).toBe(
      "sri-implemented-and-external-scripts-loaded-securely",
    );
    expect(sri('<script src="//cdn.other.net/a.js" integrity="sha384-x"></script>')).toBe(
      "sri-implemented-but-external-scripts-not-loaded-securely",
    );
    expect(sri('<script src="http://cdn.other.net/a.js"></script>')).toBe("sri-not-implemented-and-external-scripts-not-loaded-securely");
    expect(sri("{}", { ...OURS, "content-type": "application/json" })).toBe("sri-not-implemented-response-not-html");
  });

  it("Cookies: Secure, HttpOnly on session cookies, SameSite", () => {
    const cookies = (setCookie: string | string[], headers = OURS) =>
      resultOf(score({ ...headers, "set-cookie": setCookie as string }), "cookies");
    expect(cookies("lang=en; Path=/; Secure; SameSite=Lax")).toBe("cookies-secure-with-httponly-sessions-and-samesite");
    expect(cookies("lang=en; Path=/; Secure")).toBe("cookies-secure-with-httponly-sessions");
    expect(cookies("lang=en; Path=/")).toBe("cookies-without-secure-flag-but-protected-by-hsts");
    expect(cookies("lang=en; Path=/", without("strict-transport-security"))).toBe("cookies-without-secure-flag");
    expect(cookies("sessionid=1; Secure; SameSite=Strict")).toBe("cookies-session-without-httponly-flag");
    expect(cookies(["a=1; Secure; SameSite=Lax", "sessionid=1; HttpOnly"], without("strict-transport-security"))).toBe(
      "cookies-session-without-secure-flag",
    );
    expect(cookies("a=1; Secure; SameSite=Sometimes")).toBe("cookies-samesite-flag-invalid");
    expect(cookies("csrftoken=1; Secure")).toBe("cookies-anticsrf-without-samesite-flag");
  });

  it("Cross-origin Resource Sharing: only credentialed access for any Origin is penalised", () => {
    const origin = "https://http-observatory.security.mozilla.org";
    const cors = (headers: HeaderRecord) => resultOf(score(OURS, { corsPreflight: { origin, headers } }), "cross-origin-resource-sharing");
    expect(cors({ "access-control-allow-origin": "*" })).toBe("cross-origin-resource-sharing-implemented-with-public-access");
    expect(cors({ "access-control-allow-origin": "https://partner.example" })).toBe(
      "cross-origin-resource-sharing-implemented-with-restricted-access",
    );
    expect(cors({ "access-control-allow-origin": origin, "access-control-allow-credentials": "true" })).toBe(
      "cross-origin-resource-sharing-implemented-with-universal-access",
    );
  });

  it("Redirection: from the http request's route", () => {
    const redirection = (httpRoute: string[] | null) => resultOf(score(OURS, { httpRoute }), "redirection");
    expect(redirection(null)).toBe("redirection-not-needed-no-http");
    expect(redirection(["http://www.example.com/"])).toBe("redirection-missing");
    expect(redirection(["http://www.example.com/", "https://example.com/"])).toBe("redirection-off-host-from-http");
    expect(redirection(["http://www.example.com/", "http://example.com/", "https://example.com/"])).toBe(
      "redirection-not-to-https-on-initial-redirection",
    );
    expect(redirection(["http://www.example.com/", "https://www.example.com/", "http://www.example.com/x"])).toBe(
      "redirection-not-to-https",
    );
  });
});
