/**
 * The Observatory scorer on literal header sets: it must reproduce the published modifiers
 * and grades, and notice when a header this site relies on is weakened or dropped.
 */
import { describe, expect, it } from "vitest";
import { gradeFor, type HeaderRecord } from "../support/observatory.ts";
import { CSP, OURS, resultOf, score, withHeader, without } from "../support/observatory-headers.ts";

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
