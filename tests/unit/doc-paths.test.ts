/**
 * The docs name files and folders a newcomer is meant to open; a move that leaves a name
 * behind sends them nowhere. Every repository path the docs and the README cite must exist.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TOP_FOLDERS = ["server", "client", "shared", "tests", "bench", "scripts", "harness", "audit", "reliability", "content", "deploy"];
const CITED_PATH = new RegExp(`\`((?:${TOP_FOLDERS.join("|")})/[A-Za-z0-9_./-]*)\``, "g");

function markdownFiles(): string[] {
  const docs = path.join(ROOT, "docs");
  const records = path.join(docs, "decisions");
  return [
    path.join(ROOT, "README.md"),
    ...readdirSync(docs)
      .filter((name) => name.endsWith(".md"))
      .map((name) => path.join(docs, name)),
    ...readdirSync(records).map((name) => path.join(records, name)),
  ];
}

/** Every `file: cited path` of the docs (globs left out). */
function citedPaths(): { file: string; cited: string }[] {
  return markdownFiles().flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(CITED_PATH)]
      .map((match) => ({ file: path.relative(ROOT, file), cited: match[1] as string }))
      .filter(({ cited }) => !cited.includes("*")),
  );
}

describe("paths the docs cite", () => {
  it("all exist", () => {
    const cited = citedPaths();
    expect(cited.length).toBeGreaterThan(50);
    const missing = cited.filter(({ cited }) => !existsSync(path.join(ROOT, cited))).map(({ file, cited }) => `${file}: ${cited}`);
    expect(missing).toEqual([]);
  });
});
