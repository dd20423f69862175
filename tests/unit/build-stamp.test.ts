/**
 * When `npm start` builds (scripts/build-stamp.mjs): only when dist/ is missing or is the
 * build of other sources than those in the tree, judged by content, never by file times.
 * Run as npm runs it, a real Node process, on a small project of its own.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../server/project-root.ts";

let root: string;

const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};
const stamp = (command: "begin" | "end" | "current" | "prestart", env: Record<string, string> = {}) => {
  const { NODE_ENV: _, ...inherited } = process.env;
  const run = spawnSync(process.execPath, [path.join(root, "scripts/build-stamp.mjs"), command], {
    encoding: "utf8",
    env: { ...inherited, ...env },
  });
  return { code: run.status, said: run.stderr };
};
/** What a successful build leaves, between its first and last step. */
const build = (whileBuilding: () => void = () => {}) => {
  expect(stamp("begin").code).toBe(0);
  for (const output of ["dist/server/index.js", "dist/server/content-cli.js", "dist/ssr/entry-server.js", "dist/client/index.html"])
    write(output, "built");
  whileBuilding();
  expect(stamp("end").code).toBe(0);
};

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "portal-stamp-"));
  mkdirSync(path.join(root, "scripts"));
  copyFileSync(path.join(PROJECT_ROOT, "scripts/build-stamp.mjs"), path.join(root, "scripts/build-stamp.mjs"));
  write("client/page.tsx", "export const page = 1;\n");
  write("server/index.ts", "export const server = 1;\n");
  write("package-lock.json", "{}\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("npm start's build check", () => {
  it("builds a tree that has no build", () => {
    expect(stamp("current")).toEqual({ code: 1, said: expect.stringMatching(/^dist\/ has no build/) });
  });

  it("serves the build of the sources as they are, however their files' times move", () => {
    build();
    expect(stamp("current").code).toBe(0);
    const later = new Date(Date.now() + 3_600_000);
    utimesSync(path.join(root, "client/page.tsx"), later, later);
    expect(stamp("current").code).toBe(0);
  });

  it("builds again once a source, or the dependencies' versions, changed", () => {
    build();
    write("client/page.tsx", "export const page = 2;\n");
    expect(stamp("current")).toEqual({ code: 1, said: expect.stringMatching(/^the sources changed/) });
    build();
    expect(stamp("current").code).toBe(0);
    write("package-lock.json", '{"lockfileVersion":3}\n');
    expect(stamp("current").code).toBe(1);
  });

  it("does not take a build for current when a source changed while it ran, or when it failed", () => {
    build(() => write("server/index.ts", "export const server = 2;\n"));
    expect(stamp("current").code).toBe(1);
    // A build that fails stops before its last step: no stamp, so the next start builds.
    expect(stamp("begin").code).toBe(0);
    expect(stamp("current")).toEqual({ code: 1, said: expect.stringMatching(/no build stamp/) });
  });
});

describe("npm start in production", () => {
  /** A build script that only leaves a mark, and (unless pruned) the build tools in node_modules. */
  const project = ({ pruned }: { pruned: boolean }) => {
    write("package.json", JSON.stringify({ scripts: { build: "node -e \"require('fs').writeFileSync('built','')\"" } }));
    if (!pruned) write("node_modules/vite/package.json", "{}\n");
  };
  const built = () => existsSync(path.join(root, "built"));

  it("stops a pruned tree's stale build with one line saying to run npm run build, and does not build", () => {
    project({ pruned: true });
    build();
    write("server/index.ts", "export const server = 2;\n");
    const { code, said } = stamp("prestart");
    expect(code).toBe(1);
    expect(said.trim().split("\n")).toEqual([
      "the sources changed since dist/ was built: run npm run build first (npm start never builds in production)",
    ]);
    expect(built()).toBe(false);
  });

  it("stops a missing build under NODE_ENV=production, build tools installed or not", () => {
    project({ pruned: false });
    const { code, said } = stamp("prestart", { NODE_ENV: "production" });
    expect(code).toBe(1);
    expect(said).toMatch(/^dist\/ has no build .*: run npm run build first/);
    expect(built()).toBe(false);
  });

  it("builds a stale tree in development, where the build tools are", () => {
    project({ pruned: false });
    expect(stamp("prestart").code).toBe(0);
    expect(built()).toBe(true);
  });

  it("serves a runtime tree that carries the build without its sources", () => {
    project({ pruned: true });
    build();
    for (const folder of ["client", "server", "shared"]) rmSync(path.join(root, folder), { recursive: true, force: true });
    expect(stamp("prestart", { NODE_ENV: "production" })).toEqual({ code: 0, said: "" });
  });
});
