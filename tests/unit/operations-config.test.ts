/**
 * The configuration table of docs/operations.md is the operator's list of settings: every
 * variable the config reads is in it, and it names none the config does not read.
 * .env.example is made from it (npm run env-example) and must be current.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { envExampleText } from "../../scripts/env-example-text.ts";
import { CONFIG_VARIABLES, parseConfig } from "../../server/config.ts";

/** The variables named in the first column of the table under "## Configuration". */
function documentedVariables(text: string): string[] {
  const section = text.slice(text.indexOf("\n## Configuration\n"));
  const end = section.indexOf("\n## ", 1);
  const rows = (end === -1 ? section : section.slice(0, end)).split("\n").filter((line) => line.startsWith("| `"));
  return rows.flatMap((row) => [...(row.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] as string));
}

const operations = readFileSync(path.resolve(import.meta.dirname, "../../docs/operations.md"), "utf8");

describe("the operations guide's configuration table", () => {
  it("lists every variable the config reads, and only those", () => {
    const documented = documentedVariables(operations);
    expect(documented.length).toBeGreaterThan(0);
    expect(CONFIG_VARIABLES.filter((name) => !documented.includes(name))).toEqual([]);
    expect(documented.filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
  });
});

describe(".env.example", () => {
  const example = readFileSync(path.resolve(import.meta.dirname, "../../.env.example"), "utf8");

  it("is current: made again from the operations guide's table, it is the file (npm run env-example writes it)", () => {
    expect(example).toBe(envExampleText(operations));
  });

  it("names every variable the config reads, each at a default the config accepts", () => {
    const named = [...example.matchAll(/^# ([A-Z][A-Z0-9_]*)=(.*)$/gm)];
    expect(named.map((m) => m[1]).sort()).toEqual([...CONFIG_VARIABLES].sort());
    // Uncommented as written, the file starts the server as the defaults do.
    const env = Object.fromEntries(named.map((m) => [m[1] as string, m[2] as string]));
    expect(parseConfig(env)).toEqual(parseConfig({}));
  });
});
