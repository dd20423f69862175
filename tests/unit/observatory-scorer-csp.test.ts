/** The Observatory scorer's Content Security Policy test on literal policies. */
import { describe, expect, it } from "vitest";
import { parseCsp } from "../support/observatory.ts";
import { cspResult, OURS, resultOf, score, withHeader, without } from "../support/observatory-headers.ts";

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
