/** `npm run content` as an operator runs it: the command from source in a child process, its output and exit code. */
import { spawn } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");
const TSX = join(ROOT, "node_modules/.bin/tsx");

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runContentCli(args: string[], env: Record<string, string | undefined>, stdin = ""): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ["server/content-cli.ts", ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
