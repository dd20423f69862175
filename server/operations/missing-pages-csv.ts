// The missing-pages log as a redirects file to fill in (CONTRACT 14: `from,to,status`, `to` left empty).
import type { MissingPage } from "./missing-pages.ts";

/** Characters a spreadsheet reads as the start of a formula when they begin a cell (OWASP's CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; a formula's start made text. */
export function csvField(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== value ? `"${text.replaceAll('"', '""')}"` : text;
}

export function missingPagesCsv(pages: readonly MissingPage[]): string {
  const lines = ["from,to,status", ...pages.map((page) => `${csvField(page.path)},,`)];
  return `${lines.join("\n")}\n`;
}
