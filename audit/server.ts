/**
 * The production server as an operator runs it (`node dist/server/index.js`), on a fresh
 * SQLite file that it loads with the demo site, on a free loopback port.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface RunningServer {
  origin: string;
  /** What the server wrote (warnings and errors, at LOG_LEVEL=warn). */
  output(): string;
  stop(): Promise<void>;
}

/** A port nothing listens on right now (the kernel's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilHealthy(origin: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${origin}/portal/healthz`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server did not answer /portal/healthz within 60 s:\n${output()}`);
}

export async function startBuiltServer(projectRoot: string): Promise<RunningServer> {
  const dir = await mkdtemp(path.join(tmpdir(), "portal-audit-"));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // Only what the server needs, so settings of the shell running the audit (an upstream,
  // a cluster size) do not change what is audited. PUBLIC_ORIGIN is set as a deployment
  // sets it: canonical and hreflang links are then absolute, as search engines expect.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
    PUBLIC_ORIGIN: origin,
    LOG_LEVEL: "warn",
  };
  const child = spawn(process.execPath, ["dist/server/index.js"], { cwd: projectRoot, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilHealthy(origin, child, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { origin, output: () => output, stop };
}
