/**
 * The bench's servers: the tools it needs, the build, and production servers started with the bench's
 * environment, each in the run's folder, pinned to the servers' CPU, and stopped at the end or on Ctrl-C.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { ensureCommand, hasCommand } from "../harness/commands.ts";
import { type ServerProcess, startServer } from "../harness/server-process.ts";
import { PROJECT_ROOT } from "../server/project-root.ts";
import { CPU_COUNT, LOAD_CPU, log, options, requestHeaders, SERVER_CPU } from "./options.ts";

export interface BenchContext {
  /** The run's folder: databases, logs, files the servers read. */
  dir: string;
  pinned: boolean;
  serverCpus: string | undefined;
  loadCpus: string | undefined;
  /** This process's environment, without an upstream. */
  baseEnv: Record<string, string>;
  /** A production server of the demo site with the bench's environment and `extra`, pinned to the servers' CPU. */
  startBenchServer(name: string, extra: Record<string, string>): Promise<ServerProcess>;
  /** Any node program from the project folder, pinned to the servers' CPU, stopped with the rest. */
  startPinned(name: string, args: string[]): Promise<ServerProcess>;
}

const children: ServerProcess[] = [];
let tmpDir: string | undefined;

export async function cleanUp(): Promise<void> {
  await Promise.all(children.map((c) => c.stop()));
  if (tmpDir) await rm(tmpDir, { recursive: true, force: true });
}

process.on("SIGINT", () => {
  void cleanUp().then(() => process.exit(130));
});

/** One GET with raw bytes (never decompressed) and the response headers. */
export function rawGet(
  url: string,
  headers: Record<string, string> = requestHeaders,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

export function ensureTools(): { pinned: boolean } {
  if (!ensureCommand("wrk")) {
    log("the bench needs wrk: install it with `sudo apt-get install -y wrk` (Debian/Ubuntu), then run `npm run bench` again");
    process.exit(2);
  }
  const cpus = CPU_COUNT;
  const pinned = hasCommand("taskset") && cpus >= 2;
  if (!pinned) log(`warning: ${cpus < 2 ? "one CPU" : "no taskset"}: servers and wrk are not pinned; figures will mix their work`);
  return { pinned };
}

export function build(): void {
  const started = performance.now();
  const result = spawnSync("npm", ["run", "build"], { cwd: PROJECT_ROOT, encoding: "utf8", env: process.env });
  if (result.status !== 0) {
    log(`${result.stdout}\n${result.stderr}\nthe build failed`);
    process.exit(2);
  }
  log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

export async function benchContext(pinned: boolean): Promise<BenchContext> {
  const serverCpus = pinned ? SERVER_CPU : undefined;
  tmpDir = await mkdtemp(path.join(os.tmpdir(), "portal-bench-"));
  const dir = tmpDir;
  const baseEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) baseEnv[name] = value;
  delete baseEnv.API_BASE_URL;
  const serverEnv = (name: string, extra: Record<string, string>) => ({
    ...baseEnv,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: "0",
    WEB_CONCURRENCY: "1",
    LOG_LEVEL: options.logLevel,
    // wrk is one client standing for many visitors: the rendering rows would otherwise measure its miss budget.
    MISS_RATE_PER_MIN: "0",
    // No balancer waits on its readiness: a stop need not drain.
    SHUTDOWN_DRAIN_MS: "0",
    DATABASE_URL: `sqlite:${path.join(dir, `${name}.db`)}`,
    ...extra,
  });
  const startBenchServer = (name: string, extra: Record<string, string>) =>
    startServer({
      name,
      env: serverEnv(name, extra),
      cpus: serverCpus,
      logFile: path.join(dir, `${name}.log`),
    }).then((p) => {
      children.push(p);
      return p;
    });
  const startPinned = (name: string, args: string[]) =>
    startServer({ name, args, env: baseEnv, cpus: serverCpus, logFile: path.join(dir, `${name}.log`) }).then((p) => {
      children.push(p);
      return p;
    });
  return { dir, pinned, serverCpus, loadCpus: pinned ? LOAD_CPU : undefined, baseEnv, startBenchServer, startPinned };
}
