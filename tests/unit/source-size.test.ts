/**
 * No source file is over 300 lines: a file that long holds more than one job. Every file git tracks with a
 * source extension counts, tests and scripts too.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const MOST_LINES = 300;
const SOURCE = /\.(ts|tsx|js|mjs|cjs|css|lua|sh)$/;

/** As `wc -l` counts them, with a last line that lacks its newline counted too. */
function linesOf(path: string): number {
  const text = readFileSync(join(ROOT, path), "utf8");
  const newlines = text.split("\n").length - 1;
  return text === "" || text.endsWith("\n") ? newlines : newlines + 1;
}

const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
  .split("\0")
  .filter((path) => SOURCE.test(path));
const sizes = tracked.map((path) => ({ path, lines: linesOf(path) }));

describe("source file size", () => {
  it("finds the tracked source files", () => {
    expect(tracked.length).toBeGreaterThan(200);
  });

  it(`no source file is over ${MOST_LINES} lines`, () => {
    const over = sizes.filter(({ lines }) => lines > MOST_LINES);
    expect(over.map(({ path, lines }) => `${path}: ${lines} lines`)).toEqual([]);
  });
});
