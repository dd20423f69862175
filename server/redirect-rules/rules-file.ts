// Reads a rules file's text (CSV, UTF-8, the header `from,to,status`) into a RuleTable, or says which line is wrong
// (docs/redirects.md#the-rules-file).
import { parseRule, type Rule, RuleSyntaxError } from "./rule-syntax.ts";
import { RuleChainError, RuleTable } from "./rule-table.ts";

/** A whole line's worth: longer is a mistake (a missing quote swallowing the file), never a rule. */
const MAX_FIELD_CHARS = 8192;

export class RulesFileError extends Error {
  readonly line: number;
  readonly problem: string;
  constructor(line: number, problem: string) {
    super(`line ${line}: ${problem}`);
    this.line = line;
    this.problem = problem;
  }
}

/** RFC 4180 rows with the line each starts on; quoted fields may hold commas, quotes ("") and newlines. */
function* rowsOf(text: string): Generator<{ line: number; fields: string[] }> {
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const end = text.indexOf("\n", i);
    const lineEnd = end === -1 ? text.length : end;
    const plain = text.slice(i, text[lineEnd - 1] === "\r" ? lineEnd - 1 : lineEnd);
    // Most lines hold no quote: slices of the text, no copy.
    if (!plain.includes('"')) {
      if (plain.length > MAX_FIELD_CHARS * 3) throw new RulesFileError(line, `is longer than ${MAX_FIELD_CHARS * 3} characters`);
      yield { line, fields: plain.split(",") };
      line++;
      i = lineEnd + 1;
      continue;
    }
    const quotedRow = quotedRowAt(text, i, line);
    yield { line, fields: quotedRow.fields };
    line = quotedRow.nextLine;
    i = quotedRow.next;
  }
}

function quotedRowAt(text: string, start: number, line: number): { fields: string[]; next: number; nextLine: number } {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  let lines = line;
  let i = start;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        if (c === "\n") lines++;
        field += c;
      }
    } else if (c === '"' && field === "") {
      quoted = true;
    } else if (c === ",") {
      fields.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      break;
    } else {
      field += c;
    }
    if (field.length > MAX_FIELD_CHARS) throw new RulesFileError(line, `a field is longer than ${MAX_FIELD_CHARS} characters`);
  }
  if (quoted) throw new RulesFileError(line, "a quoted field is not closed");
  fields.push(field);
  return { fields, next: i + 1, nextLine: lines + 1 };
}

const isBlank = (fields: string[]) => fields.every((f) => f.trim() === "");

export function parseRulesFile(text: string): { table: RuleTable } {
  const table = new RuleTable();
  const seen = new Map<string, number>();
  let header = false;
  for (const { line, fields } of rowsOf(text.replace(/^\uFEFF/, ""))) {
    // Blank lines and lines starting with # (notes for the next person) are skipped.
    if (isBlank(fields) || fields[0]?.trimStart().startsWith("#")) continue;
    if (!header) {
      if (fields.map((f) => f.trim().toLowerCase()).join(",") !== "from,to,status")
        throw new RulesFileError(line, "the first line must be the header from,to,status");
      header = true;
      continue;
    }
    if (fields.length !== 3)
      throw new RulesFileError(line, `has ${fields.length} fields, not 3 (from,to,status): quote a field that holds a comma`);
    const [from, to, status] = fields as [string, string, string];
    let rule: Rule;
    try {
      rule = parseRule(line, from, to, status);
    } catch (err) {
      if (err instanceof RuleSyntaxError) throw new RulesFileError(line, err.message);
      throw err;
    }
    // The exact rules without a query (most of a large file) are told apart by the table itself.
    const key = rule.from.pathKey !== undefined && rule.from.query.length === 0 ? undefined : from.trim();
    const earlier = key === undefined ? table.add(rule) : seen.get(key);
    if (earlier !== undefined) throw new RulesFileError(line, `repeats the from of line ${earlier}`);
    if (key !== undefined) {
      seen.set(key, line);
      table.add(rule);
    }
  }
  if (!header) throw new RulesFileError(1, "the file is empty: its first line must be the header from,to,status");
  try {
    table.checkChains();
  } catch (err) {
    if (err instanceof RuleChainError) throw new RulesFileError(err.lines[0] as number, err.message);
    throw err;
  }
  return { table };
}
