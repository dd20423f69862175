/**
 * `npm start` and `npm test` check the Node.js they run on first: on an older one a native
 * module (better-sqlite3) crashes the process with a segmentation fault instead of saying
 * why. One line names the Node.js needed and how to get it; exit 1.
 *
 *   node scripts/node-version.cjs            checks the running Node.js
 *   node scripts/node-version.cjs 20.20.2    checks that version instead (its tests)
 *
 * Plain CommonJS with no dependencies and no syntax newer than Node.js 6's, so any Node.js
 * anyone still has can run it.
 */
"use strict";
// biome-ignore lint/style/useNodejsImportProtocol: "node:" prefixes are unknown to the old Node.js this must speak to
const fs = require("fs");
// biome-ignore lint/style/useNodejsImportProtocol: as above
const path = require("path");

const ROOT = path.join(__dirname, "..");

/** [major, minor, patch] of "v22.19.0", "22.19" or "22". */
function parts(version) {
  const numbers = String(version).trim().replace(/^v/, "").split(".");
  return [0, 1, 2].map((i) => Number.parseInt(numbers[i] || "0", 10));
}

function compare(a, b) {
  const differs = [0, 1, 2].find((i) => a[i] !== b[i]);
  if (differs === undefined) return 0;
  return a[differs] < b[differs] ? -1 : 1;
}

/** One comparator of a range: >=, >, <=, <, = or ^ (a bare version is =). */
function satisfiesOne(version, comparator) {
  const match = /^(>=|<=|>|<|=|\^)?\s*v?(\d+(?:\.\d+){0,2})$/.exec(comparator);
  if (!match) throw new Error(`package.json engines.node: cannot read ${JSON.stringify(comparator)}`);
  const bound = parts(match[2]);
  const order = compare(version, bound);
  switch (match[1]) {
    case ">=":
      return order >= 0;
    case ">":
      return order > 0;
    case "<=":
      return order <= 0;
    case "<":
      return order < 0;
    case "^":
      return order >= 0 && version[0] === bound[0];
    default:
      return order === 0;
  }
}

/** The range as engines writes it: alternatives joined by ||, each comparators separated by spaces. */
function satisfies(version, range) {
  return range.split("||").some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|=|\^)\s+/g, "$1")
      .split(/\s+/)
      .every((comparator) => satisfiesOne(version, comparator)),
  );
}

/** .nvmrc's version; a tree that carries only the build (an image) has none, and the check still speaks. */
function recommendedVersion() {
  try {
    return fs.readFileSync(path.join(ROOT, ".nvmrc"), "utf8").trim();
  } catch (_) {
    return undefined;
  }
}

const range = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).engines.node;
const recommended = recommendedVersion();
const running = (process.argv[2] || process.versions.node).replace(/^v/, "");

if (!satisfies(parts(running), range)) {
  const major = recommended || range.replace(/^\D*(\d+).*$/, "$1");
  const getIt = `nvm install or fnm use (both read .nvmrc), or without either: export PATH="$(bash .ci/node.sh ${major})/bin:$PATH"`;
  const advice = recommended ? ` (${recommended} recommended)` : "";
  process.stderr.write(`Portal needs Node.js ${range}${advice}; this is Node.js ${running}. Get it with ${getIt}\n`);
  process.exitCode = 1;
}
