/**
 * Sanitises the HTML fields (the call table's `html`) of an upstream answer as it enters the
 * cache (docs/behaviour.md#sanitising). A field leaves as a sanitised string or not at all.
 */
import { getCallOf, HTML_FIELDS } from "../../shared/call-table.ts";
import { HOME_SCRIPT_MARKER } from "../../shared/home-script.ts";
import { sanitizeHtml } from "./sanitize-html.ts";

const SCRIPT_FIELD = "html";
/** Deeper than this is no content: dropped rather than walked. */
const MAX_DEPTH = 32;

interface Walk {
  htmlFields: ReadonlySet<string>;
  /** Where the home html's `useEval|` script is kept, only ever as a string (docs/behaviour.md#home-page). */
  scriptField: string | undefined;
}

/** undefined drops the field: an array would reach the page unsanitised (React joins it into markup). */
function safeHtmlOf(value: unknown, scriptAllowed: boolean): string | undefined {
  if (typeof value !== "string") return undefined;
  return scriptAllowed && value.startsWith(HOME_SCRIPT_MARKER) ? value : sanitizeHtml(value);
}

function sanitizeValue(value: unknown, walk: Walk, depth: number): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) return value.map((item) => sanitizeValue(item, walk, depth + 1));
  const entries: [string, unknown][] = [];
  for (const [field, item] of Object.entries(value)) {
    if (walk.htmlFields.has(field)) {
      const html = safeHtmlOf(item, field === walk.scriptField);
      if (html !== undefined) entries.push([field, html]);
    } else {
      entries.push([field, sanitizeValue(item, walk, depth + 1)]);
    }
  }
  // fromEntries defines own properties: a `__proto__` key stays data, never the object's prototype.
  return Object.fromEntries(entries);
}

/** `callPath` is relative to /api/portal. */
export function sanitizePayload(callPath: string, data: unknown): unknown {
  const htmlFields = new Set([...HTML_FIELDS, ...(getCallOf(callPath)?.html ?? [])]);
  return sanitizeValue(data, { htmlFields, scriptField: htmlFields.has(SCRIPT_FIELD) ? SCRIPT_FIELD : undefined }, 0);
}
