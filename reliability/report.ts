/** What each section hands back, and the one table the run prints. */

export interface Check {
  name: string;
  ok: boolean;
  /** Why it failed (or a figure worth showing when it passed). */
  detail?: string;
}

export interface SectionResult {
  section: string;
  checks: Check[];
  /** The section's one-line result for the note under the table. */
  headline?: string;
  /** The figures the table shows for the section, short phrases. */
  figures: string[];
  /** Where the section's server logs are, shown on failure. */
  logs?: string[];
}

export class Checks {
  readonly list: Check[] = [];

  add(name: string, ok: boolean, detail?: string): boolean {
    this.list.push({ name, ok, detail });
    return ok;
  }
}

export const passed = (result: SectionResult) => result.checks.length > 0 && result.checks.every((c) => c.ok);

/** A section that could not run at all counts as failed, with the reason as its one check. */
export function crashed(section: string, error: unknown): SectionResult {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { section, checks: [{ name: "ran to the end", ok: false, detail: message }], figures: [] };
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const part of text.split("; ")) {
    const last = lines.length - 1;
    if (last >= 0 && (lines[last] as string).length + part.length + 2 <= width) lines[last] = `${lines[last]}; ${part}`;
    else lines.push(part);
  }
  return lines.length ? lines : [""];
}

/** The table: one row per section (figures wrapped), then every failed check with its reason. */
export function formatTable(results: SectionResult[]): string {
  const FIGURES_WIDTH = 84;
  const rows = results.map((r) => ({
    section: r.section,
    checks: `${r.checks.filter((c) => c.ok).length}/${r.checks.length}`,
    figures: wrap(r.figures.join("; "), FIGURES_WIDTH),
    result: passed(r) ? "PASS" : "FAIL",
  }));
  const w = {
    section: Math.max(7, ...rows.map((r) => r.section.length)),
    checks: Math.max(6, ...rows.map((r) => r.checks.length)),
    figures: Math.max(7, ...rows.flatMap((r) => r.figures.map((f) => f.length))),
  };
  const line = (a: string, b: string, c: string, d: string) =>
    `| ${a.padEnd(w.section)} | ${b.padStart(w.checks)} | ${c.padEnd(w.figures)} | ${d.padEnd(6)} |`;
  const out = [
    line("section", "checks", "figures", "result"),
    `|${"-".repeat(w.section + 2)}|${"-".repeat(w.checks + 2)}|${"-".repeat(w.figures + 2)}|${"-".repeat(8)}|`,
  ];
  for (const r of rows) {
    r.figures.forEach((f, i) => {
      out.push(i === 0 ? line(r.section, r.checks, f, r.result) : line("", "", f, ""));
    });
  }
  const headlines = results.filter((r) => r.headline).map((r) => `- ${r.headline}`);
  if (headlines.length) out.push("", ...headlines);
  const failures = results.flatMap((r) => r.checks.filter((c) => !c.ok).map((c) => ({ section: r.section, check: c, logs: r.logs })));
  if (failures.length) {
    out.push("", "Failed checks:");
    for (const { section, check, logs } of failures) {
      out.push(`- ${section}: ${check.name}${check.detail ? `\n    ${check.detail.split("\n").join("\n    ")}` : ""}`);
      if (logs?.length) out.push(`    server logs: ${logs.join(", ")}`);
    }
  }
  return out.join("\n");
}
