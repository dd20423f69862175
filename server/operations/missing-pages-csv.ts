// The missing-pages log as a redirects file to fill in (docs/behaviour.md#missing-pages: `from,to,status`, `to` left empty).
import type { MissingPage } from "./missing-pages.ts";

/** Characters a spreadsheet reads as the start of a formula when they begin a cell (OWASP's CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; a formula's start made text. */
export function csvField(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== value ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A missing path as a rule's `from` that matches that path alone: `:` and `*` are rule syntax (`:name`, a final
 * `*`), so they are written percent-encoded, which the rules file reads back as the literal characters. A path
 * never holds `?` or `#` (the query and fragment are not counted) and every other escape is read as itself.
 */
export function literalFrom(path: string): string {
  return path.replaceAll(":", "%3A").replaceAll("*", "%2A");
}

export function missingPagesCsv(pages: readonly MissingPage[]): string {
  const lines = ["from,to,status", ...pages.map((page) => `${csvField(literalFrom(page.path))},,`)];
  return `${lines.join("\n")}\n`;
}
