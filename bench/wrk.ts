/**
 * Runs wrk (one thread, pinned to the load CPU) with bench/report.lua and returns the
 * figures of its machine-readable line.
 */
import { spawn } from "node:child_process";
import path from "node:path";

export interface WrkResult {
  requests: number;
  durationUs: number;
  /** Everything read: status lines, headers and bodies. */
  bytes: number;
  p50Us: number;
  p99Us: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
}

export interface WrkOptions {
  url: string;
  durationS: number;
  connections: number;
  headers?: Record<string, string>;
  /** CPU list for taskset -c; undefined runs unpinned. */
  cpus?: string;
}

const REPORT_SCRIPT = path.join(import.meta.dirname, "report.lua");

export function runWrk(options: WrkOptions): Promise<WrkResult> {
  const wrkArgs = [
    "-t1",
    `-c${options.connections}`,
    `-d${options.durationS}s`,
    "--timeout",
    "10s",
    "-s",
    REPORT_SCRIPT,
    ...Object.entries(options.headers ?? {}).flatMap(([name, value]) => ["-H", `${name}: ${value}`]),
    options.url,
  ];
  const [command, args] = options.cpus ? ["taskset", ["-c", options.cpus, "wrk", ...wrkArgs]] : ["wrk", wrkArgs];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args as string[], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("BENCH_JSON "));
      if (code !== 0 || !line) {
        reject(new Error(`wrk failed (exit ${code}) on ${options.url}: ${err.trim() || out.trim()}`));
        return;
      }
      resolve(JSON.parse(line.slice("BENCH_JSON ".length)) as WrkResult);
    });
  });
}

export const errorCount = (r: WrkResult) => r.errors.connect + r.errors.read + r.errors.write + r.errors.status + r.errors.timeout;
