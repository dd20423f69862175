/**
 * CPU accounting from /proc for the bench's figures: what a process used, what a CPU
 * spent and on whom, and waiting until a process has gone quiet.
 */
import { readFileSync } from "node:fs";

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
