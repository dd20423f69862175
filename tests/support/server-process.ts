/**
 * Runs the real server process with the given environment and waits for its "listening"
 * log line: from source (server/index.ts under tsx), or the production build as `npm start`
 * starts it (`built`, see built-site.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { startCommand, startEnv } from "../../harness/server-process.ts";

export const PROJECT_DIR = path.resolve(import.meta.dirname, "../..");
/**
 * From source, node itself runs the server with tsx as its loader: tsx's own command would stand between the test and
 * the server, relaying a stop signal and killing the server (exit 143) when the server is slow, under load, to say it got it.
 */
const FROM_SOURCE = [process.execPath, "--import", "tsx", "server/index.ts"];

export interface ProcessOptions {
  /** The production build in dist/, started as `npm start` starts it; else the source under tsx. */
  built?: boolean;
}

export interface ServerProcess {
  child: ChildProcess;
  origin: string;
  /** Every line the process wrote to stdout so far. */
  logs: string[];
  /** What the process wrote to stderr so far. */
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function runServerScript(env: Record<string, string>, { built = false }: ProcessOptions = {}): ChildProcess {
  const [command, ...args] = built ? startCommand() : FROM_SOURCE;
  return spawn(command as string, args, {
    cwd: PROJECT_DIR,
    // No balancer waits on a test's server: a stop does not drain unless the test asks for one.
    env: { ...(built ? startEnv() : {}), PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", SHUTDOWN_DRAIN_MS: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/** Runs the server with an environment it should refuse: its exit code and the lines it wrote to stderr. */
export async function refusedStart(env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const child = runServerScript(env);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await exitOf(child);
  return { code, lines: stderr.trim().split("\n") };
}

export async function startServerProcess(env: Record<string, string>, options: ProcessOptions = {}): Promise<ServerProcess> {
  const child = runServerScript({ HOST: "127.0.0.1", PORT: "0", ...env }, options);
  const logs: string[] = [];
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        logs.push(line);
        if (!line.startsWith("{")) continue;
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === "listening" && entry.port) resolve(entry.port);
      }
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code} before listening: ${stderr}`)));
  });
  return {
    child,
    origin: `http://127.0.0.1:${port}`,
    logs,
    stderr: () => stderr,
    stop: (signal = "SIGTERM") => {
      child.kill(signal);
      return exitOf(child);
    },
  };
}
