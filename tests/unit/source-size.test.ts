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

/**
 * Files still being split into parts, each over the limit today. Remove a file from this list in the change that
 * brings it under: the test fails while a file listed here is already within the limit, so the list cannot go stale.
 */
const BEING_SPLIT = new Set([
  "bench/run.ts",
  "server/search/search.ts",
  "server/search/index-file.ts",
  "client/shell/top-menu.tsx",
  "client/styles/shell.css",
  "tests/browser/home.test.ts",
  "tests/browser/pages.test.ts",
  "tests/browser/shell.test.ts",
  "tests/integration/cluster.test.ts",
  "tests/integration/content/api.test.ts",
  "tests/integration/enquiries.test.ts",
  "tests/integration/enquiry-spoofing.test.ts",
  "tests/integration/home-ssr.test.ts",
  "tests/integration/image-endpoint.test.ts",
  "tests/integration/languages.test.ts",
  "tests/integration/pages-ssr-routes.test.ts",
  "tests/integration/portal-api-cache.test.ts",
  "tests/integration/purge.test.ts",
  "tests/integration/search.test.ts",
  "tests/integration/seo.test.ts",
  "tests/integration/shared-tier.test.ts",
  "tests/integration/shell-ssr.test.ts",
  "tests/unit/observatory-scorer.test.ts",
  "tests/unit/swr-cache.test.ts",
]);

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
    const over = sizes.filter(({ path, lines }) => lines > MOST_LINES && !BEING_SPLIT.has(path));
    expect(over.map(({ path, lines }) => `${path}: ${lines} lines`)).toEqual([]);
  });

  it("every file listed as being split is still tracked and still over the limit", () => {
    const lines = new Map(sizes.map(({ path, lines }) => [path, lines]));
    const stale = [...BEING_SPLIT]
      .filter((path) => (lines.get(path) ?? 0) <= MOST_LINES)
      .map((path) => `${path}: ${lines.has(path) ? `${lines.get(path)} lines, within the limit` : "not tracked"}`);
    expect(stale).toEqual([]);
  });
});
