/** The Observatory scorer's tests besides the Content Security Policy, on literal header sets. */
import { describe, expect, it } from "vitest";
import type { HeaderRecord } from "../support/observatory.ts";
import { HTML, OURS, resultOf, score, withHeader, without } from "../support/observatory-headers.ts";

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
