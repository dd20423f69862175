/**
 * Whether dist/ holds the build of the sources as they are, so `npm start` (and `npm run
 * content`) build only when it does not, and never in production. Plain JavaScript for
 * Node alone: it runs before there is a build, and after `npm prune --omit=dev` has
 * removed TypeScript and Vite.
 *
 *   node scripts/build-stamp.mjs begin     first step of `npm run build`
 *   node scripts/build-stamp.mjs end       last step, once every part of the build succeeded
 *   node scripts/build-stamp.mjs current   exits 0 when dist/ is current, 1 (saying why) when not
 *   node scripts/build-stamp.mjs prestart  `npm start`'s check: current, or built now in
 *     development; in production (NODE_ENV=production, or a tree pruned of Vite) a stale or
 *     missing build stops the start with one line saying to run `npm run build`
 *
 * The stamp is a SHA-256 of every file the build reads (path and content), taken as the
 * build begins, so a file edited while it runs leaves the build stale, not stamped
 * current. Contents, not times: a copy, a fresh clone or `touch` changes nothing, and a
 * checkout of other sources is seen even when the files' times went backwards.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const DIST = path.join(ROOT, "dist");
const STAMP = path.join(DIST, "build-stamp.json");
const PENDING = path.join(DIST, "build-stamp.pending.json");

/** Everything the build reads: the sources it compiles and bundles, its configuration, and the dependencies' versions. */
const BUILD_INPUTS = [
  "client",
  "server",
  "shared",
  "index.html",
  "vite.config.ts",
  "tsconfig.json",
  "tsconfig.build.json",
  "package-lock.json",
];

/** What `npm start` and `npm run content` run: a build without one of them is no build. */
const BUILD_OUTPUTS = ["server/index.js", "server/content-cli.js", "ssr", "client"];

/** The build inputs' paths (relative, with /), sorted, files only. */
function inputFiles() {
  const files = [];
  for (const input of BUILD_INPUTS) {
    const full = path.join(ROOT, input);
    if (!existsSync(full)) continue;
    if (!statSync(full).isDirectory()) {
      files.push(input);
      continue;
    }
    for (const entry of readdirSync(full, { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) files.push(path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
    }
  }
  return files.sort();
}

function sourcesHash() {
  const hash = createHash("sha256");
  for (const file of inputFiles()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(ROOT, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, "utf8")).sources;
  } catch {
    return undefined;
  }
}

/** Why dist/ is not the build of the sources, or undefined when it is. */
function staleReason() {
  const missing = BUILD_OUTPUTS.find((output) => !existsSync(path.join(DIST, output)));
  if (missing) return `dist/ has no build (dist/${missing} is missing)`;
  const stamped = readStamp();
  if (!stamped) return "dist/ has a build of unknown sources (no build stamp)";
  // A runtime tree (an image's last stage) carries the build without its sources: the build is all there is.
  if (!SOURCE_FOLDERS.some((folder) => existsSync(path.join(ROOT, folder)))) return undefined;
  if (stamped !== sourcesHash()) return "the sources changed since dist/ was built";
  return undefined;
}

/** The folders of sources the build compiles: a tree without any of them holds a build only. */
const SOURCE_FOLDERS = ["client", "server", "shared"];

/** Production: said so, or a tree whose build tools were pruned away (12-factor: build and run apart). */
function production() {
  return process.env.NODE_ENV === "production" || !existsSync(path.join(ROOT, "node_modules/vite/package.json"));
}

const command = process.argv[2];
if (command === "begin") {
  mkdirSync(DIST, { recursive: true });
  rmSync(STAMP, { force: true });
  writeFileSync(PENDING, `${JSON.stringify({ sources: sourcesHash() })}\n`);
} else if (command === "end") {
  renameSync(PENDING, STAMP);
} else if (command === "current") {
  const reason = staleReason();
  if (reason) {
    process.stderr.write(`${reason}: building it once (npm run build)\n`);
    process.exitCode = 1;
  }
} else if (command === "prestart") {
  const reason = staleReason();
  if (reason && production()) {
    process.stderr.write(`${reason}: run npm run build first (npm start never builds in production)\n`);
    process.exitCode = 1;
  } else if (reason) {
    process.stderr.write(`${reason}: building it once (npm run build)\n`);
    // The build's output goes to stderr, so `npm run content -- export -` keeps stdout for the site.
    process.exitCode = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", 2, 2] }).status ?? 1;
  }
} else {
  process.stderr.write("usage: node scripts/build-stamp.mjs begin | end | current | prestart\n");
  process.exitCode = 2;
}
