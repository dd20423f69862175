/** The answer read as the tests need it: its headers as an HTTP client joins them, its HTML's meta tags and scripts. */

import type { Element } from "domhandler";
import { DomUtils, parseDocument } from "htmlparser2";
import type { HeaderRecord, ObservatoryInput } from "./scoring.ts";

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);

/** A header's value as one string, as an HTTP client reads a header sent several times: joined with ", ". */
export function headerOf(headers: HeaderRecord, name: string): string | null {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return Array.isArray(value) ? value.join(", ") : String(value);
  }
  return null;
}

export function setCookiesOf(headers: HeaderRecord): string[] {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== "set-cookie" || value === undefined) continue;
    return Array.isArray(value) ? [...value] : [String(value)];
  }
  return [];
}

export interface Page {
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

export function readPage(input: ObservatoryInput): Page {
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
