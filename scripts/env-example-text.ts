/**
 * .env.example, made from the configuration table of docs/operations.md (which a unit test holds to the
 * config schema): every variable, commented out at its default, with its meaning. Pure: the
 * unit test makes it again and compares; `npm run env-example` writes it.
 */

export interface DocumentedVariable {
  name: string;
  /** The default as the table gives it (`3000`), or undefined for unset or empty. */
  value?: string;
  meaning: string;
}

/** The rows of the table under "## Configuration", one entry per variable (`PORT` / `HOST` is two). */
export function documentedVariables(operations: string): DocumentedVariable[] {
  const section = operations.slice(operations.indexOf("\n## Configuration\n"));
  const end = section.indexOf("\n## ", 1);
  const rows = (end === -1 ? section : section.slice(0, end)).split("\n").filter((line) => line.startsWith("| `"));
  return rows.flatMap((row) => {
    const [names = "", defaults = "", meaning = ""] = row
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim().replace(/\\\|/g, "|"));
    const nameList = [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] as string);
    const defaultList = defaults.split(" / ");
    return nameList.map((name, i) => {
      const value = /^`([^`]*)`$/.exec((defaultList[i] ?? defaultList[0] ?? "").trim())?.[1];
      return { name, value, meaning };
    });
  });
}

export function envExampleText(operations: string): string {
  const header = [
    '# Portal\'s settings (docs/operations.md, "Configuration"): copy to .env (compose.yaml reads it) or to',
    "# /etc/portal/portal.env (deploy/systemd/portal.service), and uncomment what you set.",
    "# Unset, a variable takes the default shown. Made from that table: npm run env-example.",
  ];
  const entries = documentedVariables(operations).map(({ name, value, meaning }) => `\n# ${meaning}\n# ${name}=${value ?? ""}`);
  return `${header.join("\n")}\n${entries.join("\n")}\n`;
}
