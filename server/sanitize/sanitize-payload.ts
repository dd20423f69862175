/**
 * Upstream answers are sanitised once, when they enter the cache, so every reader of
 * the cache (the /api/portal proxy and the page renderer) only ever sees safe HTML.
 * The fields below are the HTML ones of CONTRACT section 3; other text is rendered as
 * text and needs nothing.
 */
import { HOME_SCRIPT_MARKER } from "../../shared/home-script.ts";
import { sanitizeHtml } from "./sanitize-html.ts";

/** HTML fields wherever they appear: item details and job texts. */
const HTML_FIELDS = new Set(["detail", "description", "requirement", "callHr"]);
/** HTML fields that only some calls carry: the company introduction and the home markup. */
const HTML_FIELDS_OF_CALL: Record<string, string> = { "/plan/company": "brief", "/sys/indexhtml": "html" };

function sanitizeItem(item: unknown, extraField: string | undefined): unknown {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
  const out: Record<string, unknown> = { ...(item as Record<string, unknown>) };
  for (const [field, value] of Object.entries(out)) {
    if (typeof value !== "string") continue;
    if (field === extraField && field === "html" && value.startsWith(HOME_SCRIPT_MARKER)) continue;
    if (HTML_FIELDS.has(field) || field === extraField) out[field] = sanitizeHtml(value);
  }
  if (Array.isArray(out.pageDataList)) out.pageDataList = out.pageDataList.map((entry) => sanitizeItem(entry, undefined));
  return out;
}

/** The payload of a call with its HTML fields sanitised; `callPath` is relative to /api/portal, without query. */
export function sanitizePayload(callPath: string, data: unknown): unknown {
  const extra = HTML_FIELDS_OF_CALL[callPath];
  return Array.isArray(data) ? data.map((item) => sanitizeItem(item, extra)) : sanitizeItem(data, extra);
}
