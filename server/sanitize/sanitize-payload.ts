/**
 * Upstream answers are sanitised once, when they enter the cache, so every reader of
 * the cache (the /api/portal proxy and the page renderer) only ever sees safe HTML.
 * Which fields hold HTML is the call table's to say (`html` in shared/call-table.ts);
 * other text is rendered as text and needs nothing. An HTML field leaves here as a sanitised string or not at
 * all, whatever JSON type it came as: an array or object would otherwise reach the page
 * unsanitised (React joins an array into markup), and a number or null is no markup.
 */
import { getCallOf, HTML_FIELDS } from "../../shared/call-table.ts";
import { HOME_SCRIPT_MARKER } from "../../shared/home-script.ts";
import { sanitizeHtml } from "./sanitize-html.ts";

/** The home markup's field: it may instead hold the `useEval|` script the browser runs. */
const SCRIPT_FIELD = "html";
/** Content nests a few levels; anything deeper than this is no content, and is dropped rather than walked. */
const MAX_DEPTH = 32;

interface Walk {
  htmlFields: ReadonlySet<string>;
  /** The home markup's `useEval|` script is kept for the browser (docs/behaviour.md#home-page), only ever as a string. */
  scriptField: string | undefined;
}

/** The sanitised HTML of a field, or undefined to drop it. */
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

/** The payload of a call with its HTML fields, at any depth, sanitised; `callPath` is relative to /api/portal. */
export function sanitizePayload(callPath: string, data: unknown): unknown {
  const htmlFields = new Set([...HTML_FIELDS, ...(getCallOf(callPath)?.html ?? [])]);
  return sanitizeValue(data, { htmlFields, scriptField: htmlFields.has(SCRIPT_FIELD) ? SCRIPT_FIELD : undefined }, 0);
}
