/**
 * The production server as a child process (`node dist/server/index.js`), optionally
 * pinned to one CPU with taskset (which execs, so the child's pid is the server's own
 * and /proc/<pid>/status is its memory). Its output goes to a log file; its port is read
 * from its "listening" line.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, openSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export const PROJECT_DIR = path.resolve(import.meta.dirname, "..");
export const SERVER_ENTRY = path.join(PROJECT_DIR, "dist/server/index.js");

export interface ServerProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  port: number;
  origin: string;
  logFile: string;
  /** Resident memory now (VmRSS), in MB; NaN once the process is gone. */
  rssMb(): number;
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
  /** CPU list for taskset -c; undefined runs unpinned. */
  cpus?: string;
  startTimeoutMs?: number;
}

/** Every child process the run started and that is still running, so an early exit can end them. */
export const liveChildren = new Set<ChildProcess>();

export function track(child: ChildProcess): ChildProcess {
  liveChildren.add(child);
  child.once("exit", () => liveChildren.delete(child));
  return child;
}

export function hasCommand(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

/** Pins this process (every thread) to the given CPUs; children inherit it. */
export function pinSelf(cpus: string): void {
  spawnSync("taskset", ["-a", "-p", "-c", cpus, String(process.pid)], { stdio: "ignore" });
}

export function rssMbOf(pid: number): number {
  try {
    const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

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

export function tailOf(logFile: string, lines = 10): string {
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

/** The environment of every server the run starts: production, loopback, a port the kernel picks. */
export function serverEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_LEVEL: "info",
    ...extra,
  };
}

export async function startServer(options: StartOptions): Promise<ServerProcess> {
  // The log file may hold an earlier run of the same server (a restart): read only what follows.
  const offset = sizeOf(options.logFile);
  const fd = openSync(options.logFile, "a");
  const [command, args] = options.cpus
    ? ["taskset", ["-c", options.cpus, process.execPath, SERVER_ENTRY]]
    : [process.execPath, [SERVER_ENTRY]];
  const child = track(spawn(command, args as string[], { cwd: PROJECT_DIR, env: options.env, stdio: ["ignore", fd, fd] }));
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

/** Samples a process's VmRSS once a second until stopped. */
export function sampleMemory(pid: number, everyMs = 1000): { samples: { atMs: number; mb: number }[]; stop(): void } {
  const started = Date.now();
  const samples: { atMs: number; mb: number }[] = [];
  const take = () => {
    const mb = rssMbOf(pid);
    if (Number.isFinite(mb)) samples.push({ atMs: Date.now() - started, mb });
  };
  take();
  const timer = setInterval(take, everyMs);
  return { samples, stop: () => clearInterval(timer) };
}
