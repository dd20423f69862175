/**
 * The container image's steps without a Docker engine (CI): reads the Dockerfile, runs its
 * stages' WORKDIR, COPY, RUN and ENV in order on a copy of the tree (each stage's files
 * under a folder of its own in a temporary directory), checks the last stage holds the
 * build and production dependencies only, then runs its CMD, asks for every page type
 * (200), runs the HEALTHCHECK command (exit 0) and stops it with SIGTERM (exit 0).
 *
 *   npx tsx scripts/image-steps.ts [--reuse-build]
 *
 * --reuse-build: the build stage's `npm ci` and `npm run build` are not run again; the
 * tree's own dist/ stands for their result, and must be the build of the tree's sources
 * (its build stamp says so). Every other step, the production `npm ci --omit=dev` included,
 * runs as written. What cannot be done here is said, not pretended: the base image is the
 * machine's own Node and system packages (apt-get steps are not run), USER and --chown
 * apply only where that user exists, and the ports and listen addresses are given as
 * `docker run -e` would give them.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { auditPages } from "../audit/pages.ts";
import { freePort } from "../harness/free-port.ts";
import { startEnv, startFlags } from "../harness/server-process.ts";
import { PROJECT_ROOT } from "../server/project-root.ts";
import { execForm, type Instruction, ignoredBy, parseDockerfile, type Stage } from "./dockerfile.ts";

/** What stands for the base image's environment: the machine's PATH and HOME, and its npm configuration (a node-gyp header folder, say). */
function machineEnv(): Record<string, string> {
  const kept = Object.entries(process.env).filter(([name]) => name === "PATH" || name === "HOME" || /^npm_config_/i.test(name));
  return Object.fromEntries(kept) as Record<string, string>;
}

function sh(command: string, cwd: string, env: Record<string, string>): void {
  const run = spawnSync("sh", ["-c", command], { cwd, env, stdio: ["ignore", "inherit", "inherit"] });
  if (run.status !== 0) throw new Error(`RUN ${command} exited ${run.status}`);
}

function copy(sources: string[], target: string): void {
  mkdirSync(path.dirname(target), { recursive: true });
  const run = spawnSync("cp", ["-a", ...sources, target], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`cp ${sources.join(" ")} ${target}: ${run.stderr}`);
}

function userExists(user: string): boolean {
  return spawnSync("id", ["-u", user], { stdio: "ignore" }).status === 0;
}

/** Runs the stages; returns the last one, the image. */
function runStages(
  instructions: Instruction[],
  work: string,
  reuseBuild: boolean,
  say: (line: string) => void,
): Stage & { cmd: string[]; healthcheck: string[] } {
  const stages: Stage[] = [];
  const ignored = ignoredBy(
    readFileSync(path.join(PROJECT_ROOT, ".dockerignore"), "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#")),
  );
  let cmd: string[] = [];
  let healthcheck: string[] = [];
  const inStage = (stage: Stage, p: string) => path.join(stage.root, path.posix.isAbsolute(p) ? p : path.posix.join(stage.workdir, p));
  for (const { keyword, args, line } of instructions) {
    const stage = stages.at(-1);
    if (keyword !== "FROM" && !stage) throw new Error(`Dockerfile line ${line}: ${keyword} before FROM`);
    const current = stage as Stage;
    switch (keyword) {
      case "FROM": {
        const [image, as, name] = args.split(/\s+/);
        const stageName = as?.toUpperCase() === "AS" && name ? name : String(stages.length);
        stages.push({ name: stageName, root: path.join(work, `stage-${stages.length}`), workdir: "/", env: {} });
        say(`FROM ${image} (stage ${stageName}: the machine's own Node stands for the image)`);
        break;
      }
      case "WORKDIR":
        current.workdir = path.posix.resolve(current.workdir, args);
        mkdirSync(inStage(current, "."), { recursive: true });
        break;
      case "ENV":
        for (const [, key, value] of args.matchAll(/([A-Z_][A-Z0-9_]*)=("[^"]*"|\S*)/g))
          current.env[key as string] = (value as string).replace(/^"|"$/g, "");
        break;
      case "COPY": {
        const words = args.split(/\s+/);
        const flags = words.filter((w) => w.startsWith("--"));
        const paths = words.filter((w) => !w.startsWith("--"));
        const from = flags.find((f) => f.startsWith("--from="))?.slice("--from=".length);
        const chown = flags.find((f) => f.startsWith("--chown="))?.slice("--chown=".length);
        const dest = paths.pop() as string;
        let sources: string[];
        if (from) {
          const source = stages.find((s) => s.name === from);
          if (!source) throw new Error(`Dockerfile line ${line}: no stage ${from}`);
          sources = paths.map((p) => inStage(source, p));
        } else {
          sources = paths.flatMap((p) =>
            p === "."
              ? readdirSync(PROJECT_ROOT)
                  .filter((name) => !ignored(name))
                  .map((name) => path.join(PROJECT_ROOT, name))
              : [path.join(PROJECT_ROOT, p)],
          );
        }
        const target = inStage(current, dest);
        if (dest.endsWith("/") || paths.length > 1 || paths[0] === ".") {
          mkdirSync(target, { recursive: true });
          copy(sources, `${target}/`);
        } else {
          copy(sources, target);
        }
        if (chown) {
          const user = chown.split(":")[0] as string;
          if (process.getuid?.() === 0 && userExists(user)) spawnSync("chown", ["-R", chown, target]);
          else say(`COPY --chown=${chown}: no user ${user} here, ownership not applied`);
        }
        break;
      }
      case "RUN": {
        if (args.startsWith("[")) throw new Error(`Dockerfile line ${line}: RUN must be in shell form`);
        if (args.startsWith("apt-get ")) {
          say(`RUN ${args}: not run (the base image's system packages are this machine's own)`);
          break;
        }
        if (/(^|[\s=])\/[A-Za-z]/.test(args)) throw new Error(`Dockerfile line ${line}: RUN must use paths relative to WORKDIR (${args})`);
        const cwd = inStage(current, ".");
        if (reuseBuild && /^npm ci( --no-audit| --no-fund)*$/.test(args)) {
          say(`RUN ${args}: not run (--reuse-build)`);
        } else if (reuseBuild && args === "npm run build") {
          const stamp = spawnSync(process.execPath, ["scripts/build-stamp.mjs", "current"], { cwd: PROJECT_ROOT, encoding: "utf8" });
          if (stamp.status !== 0) throw new Error(`--reuse-build: the tree's dist/ is not current (${stamp.stderr.trim()})`);
          copy([path.join(PROJECT_ROOT, "dist")], path.join(cwd, "dist"));
          say(`RUN ${args}: the tree's current build copied in (--reuse-build)`);
        } else {
          const started = Date.now();
          sh(args, cwd, { ...machineEnv(), ...current.env });
          say(`RUN ${args} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
        }
        break;
      }
      case "USER":
        current.user = args;
        break;
      case "CMD":
        cmd = execForm(args);
        break;
      case "HEALTHCHECK":
        healthcheck = execForm(args.slice(args.indexOf("CMD") + 3).trim());
        break;
      case "EXPOSE":
      case "VOLUME":
        break;
      default:
        throw new Error(`Dockerfile line ${line}: ${keyword} is not one this script can run`);
    }
  }
  const image = stages.at(-1);
  if (!image) throw new Error("the Dockerfile has no stage");
  return { ...image, cmd, healthcheck };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

async function check(work: string, reuseBuild: boolean): Promise<string[]> {
  const failures: string[] = [];
  const say = (line: string) => console.log(line);
  const image = runStages(parseDockerfile(readFileSync(path.join(PROJECT_ROOT, "Dockerfile"), "utf8")), work, reuseBuild, say);
  const app = path.join(image.root, image.workdir);

  // The image: the build, production dependencies and the demo site, nothing else.
  const allowed = new Set(["package.json", "node_modules", "dist", "content", "data"]);
  const extra = readdirSync(app).filter((name) => !allowed.has(name));
  if (extra.length > 0) failures.push(`the image holds more than the build and its dependencies: ${extra.join(", ")}`);
  const devTools = ["vite", "typescript", "tsx", "vitest"].filter((name) => existsSync(path.join(app, "node_modules", name)));
  if (devTools.length > 0) failures.push(`the image holds development dependencies: ${devTools.join(", ")}`);
  if (!image.user || image.user === "root" || image.user === "0") failures.push(`the image runs as ${image.user ?? "root"}`);
  const [command, ...cmdArgs] = image.cmd;
  if (command !== "node") failures.push(`CMD starts ${command}, not node`);
  const flags = cmdArgs.slice(0, -1);
  if (JSON.stringify(flags) !== JSON.stringify(startFlags()))
    failures.push(`CMD gives node ${flags.join(" ")}, npm start gives ${startFlags().join(" ")}`);
  for (const [name, value] of Object.entries(startEnv()))
    if (image.env[name] !== value) failures.push(`the image sets ${name}=${image.env[name] ?? "nothing"}, npm start sets ${value}`);

  // `docker run -e`: ports of this machine's choosing, loopback.
  const [port, metricsPort] = [await freePort(), await freePort()];
  const env = {
    PATH: process.env.PATH ?? "",
    ...image.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    METRICS_PORT: String(metricsPort),
    METRICS_HOST: "127.0.0.1",
  };
  say(`CMD ${image.cmd.join(" ")} (as ${process.getuid?.() === 0 ? "root here" : "this user"}; the image's USER is ${image.user})`);
  const server = spawn(command as string, cmdArgs, { cwd: app, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  server.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  server.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  try {
    const origin = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 600 && !output.includes('"msg":"listening"'); i++) {
      if (server.exitCode !== null) throw new Error(`the CMD exited ${server.exitCode}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!output.includes('"msg":"listening"')) throw new Error(`the CMD did not listen:\n${output}`);
    for (const page of auditPages()) {
      const res = await fetch(`${origin}${page.path}`);
      await res.arrayBuffer();
      if (res.status !== 200) failures.push(`${page.name} (${page.path}) answered ${res.status}`);
    }
    say(`${auditPages().length} page types answered`);
    const ready = await fetch(`http://127.0.0.1:${metricsPort}/readyz`);
    if (ready.status !== 200) failures.push(`the internal listener's /readyz answered ${ready.status}`);
    const [hcCommand, ...hcArgs] = image.healthcheck;
    if (!hcCommand) failures.push("the image has no HEALTHCHECK");
    else {
      const health = spawnSync(hcCommand, hcArgs, { cwd: app, env, encoding: "utf8", timeout: 10_000 });
      if (health.status !== 0) failures.push(`the HEALTHCHECK command exited ${health.status}: ${health.stderr}`);
      else say("HEALTHCHECK passed");
    }
  } finally {
    const signalled = Date.now();
    server.kill("SIGTERM");
    const code = await exitOf(server);
    if (code !== 0) failures.push(`the CMD exited ${code} on SIGTERM:\n${output.slice(-2000)}`);
    else say(`SIGTERM: exit 0 after ${((Date.now() - signalled) / 1000).toFixed(1)} s (its drain included)`);
  }
  return failures;
}

const { values } = parseArgs({ options: { "reuse-build": { type: "boolean", default: false } } });
const work = await mkdtemp(path.join(tmpdir(), "portal-image-"));
let failures: string[];
try {
  failures = await check(work, values["reuse-build"] ?? false);
} catch (error) {
  failures = [error instanceof Error ? error.message : String(error)];
} finally {
  await rm(work, { recursive: true, force: true });
}
for (const failure of failures) console.error(`FAIL ${failure}`);
if (failures.length === 0) console.log("PASS the image's steps build it, and it serves every page type");
process.exitCode = failures.length === 0 ? 0 : 1;
