/**
 * The Node.js check `npm start` and `npm test` run first (scripts/node-version.cjs): on an
 * older Node.js one line says which to use and how to get it, instead of a native module
 * crashing the process. Run as npm runs it, a real Node process, told which version to judge.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../server/project-root.ts";

const SCRIPT = path.join(PROJECT_ROOT, "scripts/node-version.cjs");
const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as {
  engines: { node: string };
  scripts: Record<string, string>;
};
const recommended = readFileSync(path.join(PROJECT_ROOT, ".nvmrc"), "utf8").trim();

function check(version?: string, node = process.execPath) {
  const run = spawnSync(node, [SCRIPT, ...(version ? [version] : [])], { encoding: "utf8" });
  return { code: run.status, lines: run.stderr.split("\n").filter(Boolean) };
}

describe("the Node.js check", () => {
  it("passes the Node.js the tests run on, saying nothing", () => {
    expect(check()).toEqual({ code: 0, lines: [] });
  });

  it.each(["20.20.2", "v22.18.0", "18.0.0", "8.17.0"])(
    "stops Node.js %s with one line naming the Node.js to use and how to get it",
    (version) => {
      const { code, lines } = check(version);
      expect(code).toBe(1);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`Portal needs Node.js ${pkg.engines.node} (${recommended} recommended)`);
      expect(lines[0]).toContain(`this is Node.js ${version.replace(/^v/, "")}`);
      expect(lines[0]).toContain("nvm install");
      expect(lines[0]).toContain(`bash .ci/node.sh ${recommended}`);
    },
  );

  it.each([recommended, `${Number(recommended) + 2}.0.0`, "22.19.0"])("lets Node.js %s through", (version) => {
    expect(check(version)).toEqual({ code: 0, lines: [] });
  });

  // The Node.js a fresh machine may have (Debian's is 20): judged by the version it runs on, as npm start runs it.
  it.runIf(existsSync("/usr/bin/node"))("judges the system's own Node.js by the version it reports", () => {
    const system = spawnSync("/usr/bin/node", ["--version"], { encoding: "utf8" }).stdout.trim();
    expect(check(undefined, "/usr/bin/node")).toEqual(check(system));
  });

  it("still speaks in a tree without .nvmrc (a build alone), naming the range", () => {
    const tree = mkdtempSync(path.join(tmpdir(), "portal-node-"));
    try {
      mkdirSync(path.join(tree, "scripts"));
      copyFileSync(SCRIPT, path.join(tree, "scripts/node-version.cjs"));
      copyFileSync(path.join(PROJECT_ROOT, "package.json"), path.join(tree, "package.json"));
      const run = spawnSync(process.execPath, [path.join(tree, "scripts/node-version.cjs"), "20.20.2"], { encoding: "utf8" });
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split("\n")).toEqual([
        expect.stringContaining(`Portal needs Node.js ${pkg.engines.node}; this is Node.js 20.20.2`),
      ]);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it("runs before npm start, npm test and npm run content, and npm install refuses an older Node.js", () => {
    for (const script of ["prestart", "pretest", "precontent"])
      expect(pkg.scripts[script]).toMatch(/^node scripts\/node-version\.cjs(\s|$)/);
    expect(readFileSync(path.join(PROJECT_ROOT, ".npmrc"), "utf8")).toMatch(/^engine-strict=true$/m);
  });
});
