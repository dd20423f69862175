/**
 * Child processes of the bench: servers pinned to one CPU with taskset (taskset execs
 * the command, so the child's pid is the server's own, and /proc/<pid>/status is its
 * memory), their output kept in a log file, their port read from their "listening" line.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";

export interface BenchProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  port: number;
  origin: string;
  logFile: string;
  /** Peak resident set size so far (VmHWM), in MB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** CPU list for taskset -c; undefined runs unpinned. */
  cpus?: string;
  logFile: string;
  startTimeoutMs?: number;
}

export function hasCommand(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

export function peakRssMbOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system) the process has used so far, in ms. */
export function cpuMsOf(pid: number): number {
  try {
    // After "pid (comm) ": fields from the state on; utime and stime are the 12th and 13th of those.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticksPerS = 100;
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerS;
  } catch {
    return Number.NaN;
  }
}

/**
 * Time one CPU spent running processes (user, nice, system) or stolen by the hypervisor,
 * and its total, since boot, in ms (from /proc/stat). Interrupt time is left out: it is
 * mostly the loopback traffic of the bench itself, not charged to any process.
 */
export function cpuTimesOf(cpu: number): { busyMs: number; totalMs: number } {
  try {
    const line = readFileSync("/proc/stat", "utf8")
      .split("\n")
      .find((l) => l.startsWith(`cpu${cpu} `));
    const ticks = (line ?? "").trim().split(/\s+/).slice(1, 9).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    const [user = 0, nice = 0, system = 0, , , , , steal = 0] = ticks;
    return { busyMs: (user + nice + system + steal) * 10, totalMs: total * 10 };
  } catch {
    return { busyMs: Number.NaN, totalMs: Number.NaN };
  }
}

/** Waits until the process has used (almost) no CPU for a while, or the limit passes. */
export async function waitIdle(pid: number, { quietMs = 300, limitMs = 20_000 } = {}): Promise<void> {
  const deadline = Date.now() + limitMs;
  let last = cpuMsOf(pid);
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpuMsOf(pid);
    if (!(now - last <= 10)) quietSince = Date.now();
    last = now;
    if (Date.now() - quietSince >= quietMs) return;
  }
}

/** Pins this process (every thread) to the given CPUs. */
export function pinSelf(cpus: string): void {
  spawnSync("taskset", ["-a", "-p", "-c", cpus, String(process.pid)], { stdio: "ignore" });
}

function listeningPort(logFile: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(logFile, "utf8");
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

function tailOf(logFile: string, lines = 8): string {
  try {
    return readFileSync(logFile, "utf8").trim().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

export async function spawnServer(options: SpawnOptions): Promise<BenchProcess> {
  const fd = openSync(options.logFile, "a");
  const [command, args] = options.cpus
    ? ["taskset", ["-c", options.cpus, options.command, ...options.args]]
    : [options.command, options.args];
  const child = spawn(command, args as string[], { cwd: options.cwd, env: options.env, stdio: ["ignore", fd, fd] });
  closeSync(fd);
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
    port = listeningPort(options.logFile);
  }
  const pid = child.pid as number;
  return {
    name: options.name,
    child,
    pid,
    port,
    origin: `http://127.0.0.1:${port}`,
    logFile: options.logFile,
    peakRssMb: () => peakRssMbOf(pid),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
        child.once("exit", () => {
          clearTimeout(force);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}
