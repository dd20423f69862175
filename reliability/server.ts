/** How the run starts its servers (harness/server-process.ts) and watches their memory. */
import { rssMbOf } from "../harness/server-process.ts";

/** The environment of every server the run starts: production, loopback, a port the kernel picks. */
export function serverEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_LEVEL: "info",
    // One load generator stands for many visitors: sections other than the flood measure the server, not one client's budget.
    MISS_RATE_PER_MIN: "0",
    // No balancer waits on these servers' readiness: a stop need not drain (the shutdown section sets its own).
    SHUTDOWN_DRAIN_MS: "0",
    ...extra,
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
