/**
 * A node server as a child process, the production server as `npm start` runs it (the environment and
 * node's flags package.json's start script gives, then dist/server/index.js) unless told otherwise, optionally pinned to CPUs with taskset (which execs, so the
 * child's pid is the server's own and /proc/<pid>/status is its memory). Its output goes
 * to a log file; its port is read from its "listening" line, so it must log at info.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../server/project-root.ts";
import { track } from "./children.ts";

export const SERVER_ENTRY = path.join(PROJECT_ROOT, "dist/server/index.js");

const SETTING = /^([A-Z][A-Z0-9_]*)=(.*)$/;
/** `NAME=${NAME:-value}`: the value unless the environment sets its own. */
const DEFAULTED = /^\$\{([A-Z][A-Z0-9_]*):-(.*)\}$/;

let readScript: { settings: string[]; command: string[] } | undefined;

/** package.json's start script, word by word: the settings it starts with, and the command after them. Read once. */
function startScript(): { settings: string[]; command: string[] } {
  readScript ??= readStartScript();
  return readScript;
}

function readStartScript(): { settings: string[]; command: string[] } {
  const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/).filter(Boolean);
  const commandAt = words.findIndex((word) => !SETTING.test(word));
  const command = words.slice(commandAt);
  // `exec` only has npm's shell become node, so signals reach the server and npm exits after it.
  return { settings: words.slice(0, commandAt), command: command[0] === "exec" ? command.slice(1) : command };
}

/** The command the start script runs, word by word: `node`, its flags, the entry. */
export function startCommand(): string[] {
  const { command } = startScript();
  if (command[0] !== "node") throw new Error(`package.json's start script does not run node: ${command.join(" ")}`);
  return command;
}

/** The environment the start script gives node where the operator's sets none of it (`MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}`). */
export function startEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const word of startScript().settings) {
    const [, name, value] = SETTING.exec(word) as unknown as [string, string, string];
    const defaulted = DEFAULTED.exec(value);
    env[name] = defaulted && defaulted[1] === name ? (defaulted[2] as string) : value;
  }
  return env;
}

/** The flags `npm start` gives node (package.json's start script): the production server is measured as operators run it. */
export function startFlags(): string[] {
  return startCommand()
    .slice(1)
    .filter((word) => word.startsWith("--"));
}

export interface ServerProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  port: number;
  origin: string;
  logFile: string;
  /** Resident memory now (VmRSS), in MB; NaN once the process is gone. */
  rssMb(): number;
  /** Peak resident memory so far (VmHWM), in MB; NaN once the process is gone. */
  peakRssMb(): number;
  alive(): boolean;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

export interface StartOptions {
  name: string;
  env: Record<string, string>;
  logFile: string;
  /** What node runs, from the project folder; the production server when absent. */
  args?: string[];
  /** CPU list for taskset -c; undefined runs unpinned. */
  cpus?: string;
  startTimeoutMs?: number;
}

function statusMbOf(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const kb = Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export const rssMbOf = (pid: number) => statusMbOf(pid, "VmRSS");
const peakRssMbOf = (pid: number) => statusMbOf(pid, "VmHWM");

function listeningPort(logFile: string, after: number): number | undefined {
  let text: string;
  try {
    text = readFileSync(logFile).subarray(after).toString("utf8");
  } catch {
    return undefined;
  }
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; port?: number };
      if (entry.msg === "listening" && entry.port) return entry.port;
    } catch {}
  }
  return undefined;
}

function tailOf(logFile: string, lines = 10): string {
  try {
    return readFileSync(logFile, "utf8").trim().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

export async function startServer(options: StartOptions): Promise<ServerProcess> {
  // The log file may hold an earlier run of the same server (a restart): read only what follows.
  const offset = sizeOf(options.logFile);
  const fd = openSync(options.logFile, "a");
  const nodeArgs = options.args ?? [...startFlags(), SERVER_ENTRY];
  const [command, args] = options.cpus ? ["taskset", ["-c", options.cpus, process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];
  const child = track(
    spawn(command, args as string[], { cwd: PROJECT_ROOT, env: { ...startEnv(), ...options.env }, stdio: ["ignore", fd, fd] }),
  );
  closeSync(fd);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  let port: number | undefined;
  while (port === undefined) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${options.name} exited before listening:\n${tailOf(options.logFile)}`);
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${options.name} did not start in time:\n${tailOf(options.logFile)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    port = listeningPort(options.logFile, offset);
  }
  const pid = child.pid as number;
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    name: options.name,
    child,
    pid,
    port,
    origin: `http://127.0.0.1:${port}`,
    logFile: options.logFile,
    rssMb: () => rssMbOf(pid),
    peakRssMb: () => peakRssMbOf(pid),
    alive,
    exited,
    stop: async (graceMs = 15_000) => {
      if (!alive()) return child.exitCode;
      const force = setTimeout(() => child.kill("SIGKILL"), graceMs);
      child.kill("SIGTERM");
      const code = await exited;
      clearTimeout(force);
      return code;
    },
  };
}
