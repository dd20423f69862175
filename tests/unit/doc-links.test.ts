/**
 * The README is what a newcomer reads first: it stays short enough to read in five minutes,
 * and the links it and the docs give (to a file, or to a section of one) lead somewhere.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const README = path.join(ROOT, "README.md");

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-");

function anchorsIn(file: string): Set<string> {
  let inCode = false;
  const anchors = new Set<string>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    const heading = !inCode && /^#{1,6} (.*)$/.exec(line);
    if (heading) anchors.add(anchorOf(heading[1] as string));
  }
  return anchors;
}

/** Every relative markdown link of `file` that does not lead to a file, or to a section, that exists. */
function brokenLinks(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((link) => !/^[a-z]+:/.test(link))
    .filter((link) => {
      const [target = "", anchor] = link.split("#");
      const resolved = target ? path.resolve(path.dirname(file), target) : file;
      if (!existsSync(resolved)) return true;
      return anchor !== undefined && resolved.endsWith(".md") && !anchorsIn(resolved).has(anchor);
    })
    .map((link) => `${path.relative(ROOT, file)}: ${link}`);
}

describe("the README", () => {
  it("is under 150 lines: what Portal is, how to start and test it, and where to read on", () => {
    expect(readFileSync(README, "utf8").split("\n").length).toBeLessThan(150);
  });
});

describe("links in the README and the docs", () => {
  it("lead to files and sections that exist", () => {
    const docs = path.join(ROOT, "docs");
    const files = [
      README,
      ...readdirSync(docs)
        .filter((name) => name.endsWith(".md"))
        .map((name) => path.join(docs, name)),
    ];
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });
});
