/** The Dockerfile and .dockerignore as the image steps read them: instructions, exec-form commands, stages, ignored names. */

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

/** The Dockerfile's instructions, continuation lines joined, comments and blank lines dropped. */
export function parseDockerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i] as string;
    if (/^\s*(#|$)/.test(line)) continue;
    while (line.endsWith("\\") && i + 1 < lines.length) line = `${line.slice(0, -1)} ${lines[++i]?.trim()}`;
    const match = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!match) throw new Error(`Dockerfile line ${start + 1}: not an instruction`);
    out.push({ keyword: (match[1] as string).toUpperCase(), args: (match[2] as string).trim(), line: start + 1 });
  }
  return out;
}

/** An exec-form command (`["node", "-e", "..."]`). */
export function execForm(args: string): string[] {
  const parsed = JSON.parse(args) as unknown;
  if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === "string")) throw new Error(`not an exec-form command: ${args}`);
  return parsed as string[];
}

export interface Stage {
  name: string;
  root: string;
  workdir: string;
  env: Record<string, string>;
  user?: string;
}

/** .dockerignore's patterns, each matched against a top-level name of the context (`*` any run of characters). */
export function ignoredBy(patterns: string[]): (name: string) => boolean {
  const rules = patterns.map((p) => ({
    negate: p.startsWith("!"),
    re: new RegExp(
      `^${p
        .replace(/^!/, "")
        .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
        .replace(/\*/g, ".*")}$`,
    ),
  }));
  return (name) => rules.reduce((ignored, rule) => (rule.re.test(name) ? !rule.negate : ignored), false);
}
