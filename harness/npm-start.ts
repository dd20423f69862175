/**
 * `npm start` as an operator runs it, in a copy of the project: copying the tree, starting
 * the server through npm (its prestart included) and stopping it. Used by CI's check of
 * the production recipe (scripts/production-check.ts).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { PROJECT_ROOT } from "../server/project-root.ts";

const run = promisify(execFile);

/** Never copied: version control, CI's scripts (and the Node.js builds it installs), scratch files and the local database. */
const NOT_COPIED = new Set([".git", ".ci", ".tmp", "data"]);

/**
 * Copies the project (as `cp -a`: times and modes kept) into `target`, an existing empty
 * folder, its node_modules as a folder of its own even where the project's is a link, so
 * pruning the copy never touches the project's.
 */
export async function copyProject(target: string): Promise<void> {
  const entries = readdirSync(PROJECT_ROOT).filter((name) => !NOT_COPIED.has(name) && name !== "node_modules");
  await run("cp", ["-a", ...entries.map((name) => path.join(PROJECT_ROOT, name)), target]);
  await run("cp", ["-a", `${realpathSync(path.join(PROJECT_ROOT, "node_modules"))}/.`, path.join(target, "node_modules")]);
}

export interface NpmStarted {
  origin: string;
  /** Everything npm and the server wrote so far, both streams. */
  output(): string;
  /** SIGTERM to npm and everything it started; resolves once all have exited (the server's own stop shows in its log). */
  stop(): Promise<number | null>;
}

/** The environment a started copy gets: only what it needs, so the caller's own settings never leak in. */
function npmEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env };
}

/** Runs `npm <args>` in `dir` in a process group of its own, so stopping it stops the server npm started too. */
export function spawnNpm(dir: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn("npm", args, { cwd: dir, env: npmEnv(env), detached: true, stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * Sends a signal to the process group `spawnNpm` started, and waits until npm and every
 * process that shares its output (the server) have exited: until the output closes.
 */
export function stopGroup(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => {
    if (child.stdout?.closed && child.stderr?.closed) resolve(child.exitCode);
    else child.once("close", (code) => resolve(code));
  });
  try {
    process.kill(-(child.pid as number), signal);
  } catch {
    // The group is gone already.
  }
  return exited;
}

/** Collects both output streams of a child as they come. */
export function collectOutput(child: ChildProcess): () => string {
  let text = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    text += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    text += chunk;
  });
  return () => text;
}

/** `npm start` in `dir` (PORT and HOST default to a free port on 127.0.0.1), once the server logs that it listens. */
export async function npmStart(dir: string, env: Record<string, string>, timeoutMs = 120_000): Promise<NpmStarted> {
  const child = spawnNpm(dir, ["start"], { PORT: "0", HOST: "127.0.0.1", ...env });
  const output = collectOutput(child);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stopGroup(child);
      reject(new Error(`npm start did not listen within ${timeoutMs / 1000} s:\n${output()}`));
    }, timeoutMs);
    const onData = () => {
      const port = listeningPort(output());
      if (port === undefined) return;
      clearTimeout(timer);
      resolve(port);
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited ${code} before listening:\n${output()}`));
    });
  });
  return { origin: `http://127.0.0.1:${port}`, output, stop: () => stopGroup(child) };
}

/** The port of the server's "listening" log line, once it is in the output. */
function listeningPort(output: string): number | undefined {
  for (const line of output.split("\n")) {
    if (!line.startsWith("{") || !line.includes('"listening"')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; port?: number };
      if (entry.msg === "listening" && typeof entry.port === "number") return entry.port;
    } catch {
      // A line still being written.
    }
  }
  return undefined;
}
