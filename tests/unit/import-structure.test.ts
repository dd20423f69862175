/**
 * The shape the imports draw: shared/ stands alone, the client never reaches into the server, no circle of files
 * anywhere, and no arrow between server/'s folders runs back up. Parsed with the TypeScript compiler: no build.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const TOPS = ["server", "client", "shared"] as const;

interface Arrow {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .map((name) => posix.join(dir, name.split("\\").join("/")))
    .filter((path) => /\.tsx?$/.test(path) && !path.endsWith(".d.ts"))
    .sort();
}

/** Every module specifier a file names: static imports and re-exports (type-only ones marked), `import("...")` with a literal. */
function specifiers(path: string): { specifier: string; typeOnly: boolean }[] {
  const text = readFileSync(join(ROOT, path), "utf8");
  const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allNamedTypes = bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly);
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && allNamedTypes));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const allNamedTypes = clause !== undefined && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly);
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || allNamedTypes });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) found.push({ specifier: argument.text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file a relative specifier names, as a path from the repository root; undefined when it names none. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  const candidates = [
    target,
    target.replace(/\.js$/, ".ts"),
    target.replace(/\.js$/, ".tsx"),
    `${target}.ts`,
    `${target}.tsx`,
    `${target}/index.ts`,
  ];
  return candidates.find((path) => /\.(tsx?|json)$/.test(path) && existsSync(join(ROOT, path)));
}

const files = TOPS.flatMap(sourceFiles);
const unresolved: string[] = [];
// One arrow per pair of files; it is type only when every import between them is.
const byPair = new Map<string, Arrow>();
for (const from of files) {
  for (const { specifier, typeOnly } of specifiers(from)) {
    if (!specifier.startsWith(".")) continue;
    const to = resolveRelative(from, specifier);
    if (to === undefined) {
      if (/\.(tsx?|js)$/.test(specifier)) unresolved.push(`${from} imports "${specifier}", which names no file`);
      continue;
    }
    const known = byPair.get(`${from}|${to}`);
    if (known) known.typeOnly &&= typeOnly;
    else byPair.set(`${from}|${to}`, { from, to, typeOnly });
  }
}
const arrows = [...byPair.values()];

const top = (path: string) => path.split("/")[0] ?? "";
const describeArrow = (a: Arrow) => `${a.from} → ${a.to}${a.typeOnly ? " (type only)" : ""}`;

/** Strongly connected components of more than one node, or with an arrow to itself: each is a circle (or several). */
function circles(nodes: string[], edges: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || edges.get(node)?.has(node)) found.push(component.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) connect(node);
  return found.sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
}

/** One shortest way round a circle, from its first member back to it. */
function shortestRound(component: string[], edges: Map<string, Set<string>>): string[] {
  const start = component[0] ?? "";
  const inside = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() ?? "";
    for (const next of [...(edges.get(node) ?? [])].sort()) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0] ?? "") ?? start);
        return [...path, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}

/**
 * The order of a circle's members, bottom first, that leaves the fewest imports running back up (from a lower
 * member to a higher one), and those imports: the least that must change to break every circle among them.
 * Exact (over every subset) up to 16 members; undefined above, where the caller lists every arrow instead.
 */
function cheapestCut<T extends { from: string; to: string }>(
  component: string[],
  imports: T[],
): { order: string[]; back: T[] } | undefined {
  const n = component.length;
  if (n > 16) return undefined;
  const at = new Map(component.map((member, i) => [member, i]));
  const weight = component.map(() => component.map(() => 0));
  for (const i of imports) {
    const from = at.get(i.from);
    const to = at.get(i.to);
    const row = from === undefined ? undefined : weight[from];
    if (row && to !== undefined && from !== to) row[to] = (row[to] ?? 0) + 1;
  }
  const best = new Array<number>(1 << n).fill(Number.POSITIVE_INFINITY);
  const last = new Array<number>(1 << n).fill(-1);
  best[0] = 0;
  for (let placed = 0; placed < 1 << n; placed++) {
    const sofar = best[placed] ?? Number.POSITIVE_INFINITY;
    if (sofar === Number.POSITIVE_INFINITY) continue;
    for (let next = 0; next < n; next++) {
      if (placed & (1 << next)) continue;
      // Placing `next` above every member already placed: their imports of it now run back up.
      let cost = sofar;
      for (let below = 0; below < n; below++) if (placed & (1 << below)) cost += weight[below]?.[next] ?? 0;
      const grown = placed | (1 << next);
      if (cost < (best[grown] ?? Number.POSITIVE_INFINITY)) {
        best[grown] = cost;
        last[grown] = next;
      }
    }
  }
  const order: string[] = [];
  for (let set = (1 << n) - 1; set !== 0; set &= ~(1 << (last[set] ?? 0))) order.unshift(component[last[set] ?? 0] ?? "");
  const position = new Map(order.map((member, i) => [member, i]));
  const back = imports.filter((i) => {
    const from = position.get(i.from);
    const to = position.get(i.to);
    return from !== undefined && to !== undefined && from < to;
  });
  return { order, back };
}

function graphOf(pairs: { from: string; to: string }[]): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of pairs) edges.set(from, (edges.get(from) ?? new Set()).add(to));
  return edges;
}

/** The text a failing assertion shows: "none" when all is well. */
const report = (problems: string[]) => (problems.length === 0 ? "none" : `\n${problems.join("\n\n")}\n`);

describe("the import structure of server/, client/ and shared/", () => {
  it("reads every file and resolves every relative import", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(report(unresolved)).toBe("none");
  });

  it("shared/ imports nothing from server/ or client/, and client/ nothing from server/", () => {
    const forbidden: Record<string, string[]> = { shared: ["server", "client"], client: ["server"], server: [] };
    const wrong = arrows.filter((a) => forbidden[top(a.from)]?.includes(top(a.to))).map(describeArrow);
    expect(report(wrong)).toBe("none");
  });

  it.each(TOPS)("%s/ has no circle of files", (dir) => {
    const inside = arrows.filter((a) => top(a.from) === dir && top(a.to) === dir);
    const edges = graphOf(inside);
    const problems = circles(
      files.filter((f) => top(f) === dir),
      edges,
    ).map((component) => {
      const members = new Set(component);
      const among = inside.filter((a) => members.has(a.from) && members.has(a.to));
      const cut = cheapestCut(component, among);
      return [
        `a circle of ${component.length} files: ${component.join(", ")}`,
        `  for one: ${shortestRound(component, edges).join(" → ")}`,
        cut
          ? `  the fewest imports that close it (${cut.back.length}), against the order ${cut.order.join(", ")}:`
          : `  the ${among.length} imports among them:`,
        ...(cut?.back ?? among).map((a) => `    ${describeArrow(a)}`),
      ].join("\n");
    });
    expect(report(problems)).toBe("none");
  });

  it("inside server/, the folders' imports form no circle: no arrow runs back up", () => {
    // A file directly in server/ stands for a folder of its own name: server/app.ts is "app".
    const folder = (path: string) => (path.split("/")[1] ?? "").replace(/\.tsx?$/, "");
    const between = arrows
      .filter((a) => top(a.from) === "server" && top(a.to) === "server" && folder(a.from) !== folder(a.to))
      .map((a) => ({ file: a, from: folder(a.from), to: folder(a.to) }));
    const edges = graphOf(between);
    const folders = [...new Set(files.filter((f) => top(f) === "server").map(folder))].sort();
    const problems = circles(folders, edges).map((component) => {
      const members = new Set(component);
      const among = between.filter((a) => members.has(a.from) && members.has(a.to));
      const cut = cheapestCut(component, among);
      const byArrow = new Map<string, string[]>();
      for (const a of cut?.back ?? among)
        byArrow.set(`${a.from} → ${a.to}`, [...(byArrow.get(`${a.from} → ${a.to}`) ?? []), describeArrow(a.file)]);
      return [
        `a circle of ${component.length} folders: ${component.join(", ")}`,
        cut
          ? `  the fewest imports that close it (${cut.back.length}, in ${byArrow.size} arrows) run back up the order ${cut.order.join(" < ")}:`
          : `  its ${byArrow.size} arrows:`,
        ...[...byArrow.entries()].sort(([x], [y]) => x.localeCompare(y)).map(([arrow, imports]) => `    ${arrow}: ${imports.join(", ")}`),
      ].join("\n");
    });
    expect(report(problems)).toBe("none");
  });

  // content/ is left out: the server starts its thread and the CLI opens its database, two programs sharing no entry;
  // the CLI lists and deletes enquiries on their store alone, without the intake, delivery and metrics.
  it("the entry files import from each feature folder only the file named for it", () => {
    const entries = ["server/app.ts", "server/index.ts", "server/cluster.ts", "server/content-cli.ts", "server/shared-tier.ts"];
    const features = ["api-proxy", "pages", "images", "purge", "push", "preview", "seo", "search", "enquiries", "operations", "render"];
    const wrong = arrows
      .filter((a) => entries.includes(a.from) && !(a.from === "server/content-cli.ts" && a.to === "server/enquiries/store.ts"))
      .filter((a) => {
        const [, feature] = a.to.split("/");
        return feature !== undefined && features.includes(feature) && a.to !== `server/${feature}/${feature}.ts`;
      })
      .map(describeArrow);
    expect(report(wrong)).toBe("none");
  });
});
