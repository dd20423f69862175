/** The site's own https headers and a scorer call on them, for the Observatory scorer's unit tests. */
import { type HeaderRecord, type ObservatoryInput, scoreObservatory } from "./observatory.ts";

const URL_ = "https://www.example.com/portal/index.html";
export const CSP =
  "default-src 'self'; script-src 'self' 'sha256-AbC='; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data: https:; " +
  "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'; upgrade-insecure-requests";

/** The headers the site sends over https. */
export const OURS: HeaderRecord = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": CSP,
  "strict-transport-security": "max-age=63072000; includeSubDomains",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-content-type-options": "nosniff",
  "x-frame-options": "SAMEORIGIN",
  "cross-origin-resource-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
};
export const HTML = '<!doctype html><html><head><script type="module" src="/assets/index.js"></script></head><body></body></html>';

export function score(headers: HeaderRecord, overrides: Partial<ObservatoryInput> = {}) {
  return scoreObservatory({
    url: URL_,
    headers,
    body: HTML,
    httpRoute: ["http://www.example.com/", "https://www.example.com/", URL_],
    corsPreflight: { origin: "https://http-observatory.security.mozilla.org", headers: {} },
    ...overrides,
  });
}
export const without = (name: string, headers: HeaderRecord = OURS) =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => k !== name));
export const withHeader = (name: string, value: string, headers: HeaderRecord = OURS) => ({ ...headers, [name]: value });
export const resultOf = (s: ReturnType<typeof score>, test: string) => s.tests.find((t) => t.test === test)?.result;
export const cspResult = (policy: string, extra: Partial<ObservatoryInput> = {}) =>
  resultOf(score(withHeader("content-security-policy", policy), extra), "content-security-policy");
