/**
 * wrk with one thread, optionally pinned with taskset, and the figures of its run read
 * from the machine-readable line of harness/wrk-report.lua.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { track } from "./children.ts";

export interface WrkResult {
  requests: number;
  durationUs: number;
  /** Everything read: status lines, headers and bodies. */
  bytes: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
  /** Answers the request script saw served from a cache, and answers it judged (0 when it judges none). */
  cacheHits: number;
  cacheAnswers: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
}

export interface WrkOptions {
  url: string;
  durationS: number;
  connections: number;
  headers?: Record<string, string>;
  /** A Lua script defining wrk's `request` function; wrk's default request (GET url) when absent. */
  requests?: string;
  /** CPU list for taskset -c; undefined runs unpinned. */
  cpus?: string;
  /** Extra environment for the request script. */
  env?: Record<string, string>;
}

const REPORT_SCRIPT = path.join(import.meta.dirname, "wrk-report.lua");
const MARKER = "WRK_JSON ";

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
  const env = { ...process.env, ...options.env, WRK_REQUESTS: options.requests ?? "" };
  return new Promise((resolve, reject) => {
    const child = track(spawn(command, args as string[], { env, stdio: ["ignore", "pipe", "pipe"] }));
    let out = "";
    let err = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith(MARKER));
      if (code !== 0 || !line) {
        reject(new Error(`wrk failed (exit ${code}) on ${options.url}: ${(err.trim() || out.trim()).slice(0, 500)}`));
        return;
      }
      resolve(JSON.parse(line.slice(MARKER.length)) as WrkResult);
    });
  });
}

export const errorCount = (r: WrkResult) => r.errors.connect + r.errors.read + r.errors.write + r.errors.status + r.errors.timeout;
