/**
 * No circle of imports in shared/ or client/, type imports included: each file can be read
 * after the files it imports. shared/ imports neither server/ nor client/.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../server/project-root.ts";

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : /\.tsx?$/.test(entry.name) ? [full] : [];
  });

/** The relative imports of a file (static, type-only, re-exports and `import()`), resolved. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g),
  ].map((match) => match[1] ?? match[2] ?? "");
  return specifiers.filter((spec) => spec.startsWith(".")).map((spec) => path.resolve(path.dirname(file), spec));
}

/** The circles of the graph: each strongly connected group of more than one file, or a file importing itself. */
function circlesOf(files: string[]): string[][] {
  const inside = new Set(files);
  const edges = new Map(files.map((file) => [file, importsOf(file).filter((target) => inside.has(target))]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) visit(next);
      if (stack.includes(next)) low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1 || edges.get(file)?.includes(file)) circles.push(group.map((f) => path.relative(PROJECT_ROOT, f)));
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return circles;
}

describe("the import graph", () => {
  it.each(["shared", "client"])("of %s/ has no circle", (dir) => {
    expect(circlesOf(filesUnder(path.join(PROJECT_ROOT, dir)))).toEqual([]);
  });

  it("of shared/ stays inside it", () => {
    const shared = path.join(PROJECT_ROOT, "shared");
    const outside = filesUnder(shared).flatMap((file) =>
      importsOf(file)
        .filter((target) => !target.startsWith(shared + path.sep))
        .map((target) => `${path.relative(PROJECT_ROOT, file)} -> ${path.relative(PROJECT_ROOT, target)}`),
    );
    expect(outside).toEqual([]);
  });
});
