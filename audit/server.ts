/**
 * The production server as an operator runs it (`node dist/server/index.js`), on a fresh
 * SQLite file that it loads with the demo site, on a free loopback port.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { startServer } from "../harness/server-process.ts";

export interface RunningServer {
  origin: string;
  /** What the server wrote at warn and above (and anything that is not a log line). */
  output(): string;
  stop(): Promise<void>;
}

/** A port nothing listens on right now (the kernel's pick, released at once). */
function freePort(): Promise<number> {
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

/** pino's number for warn. */
const WARN = 40;

function warningsIn(logFile: string): string {
  let text = "";
  try {
    text = readFileSync(logFile, "utf8");
  } catch {}
  return text
    .split("\n")
    .filter((line) => {
      if (!line.trim()) return false;
      try {
        return ((JSON.parse(line) as { level?: number }).level ?? WARN) >= WARN;
      } catch {
        return true;
      }
    })
    .join("\n")
    .slice(-20_000);
}

export async function startBuiltServer(): Promise<RunningServer> {
  const dir = await mkdtemp(path.join(tmpdir(), "portal-audit-"));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const logFile = path.join(dir, "server.log");
  // Only what the server needs, so settings of the shell running the audit (an upstream,
  // a cluster size) do not change what is audited. PUBLIC_ORIGIN is set as a deployment
  // sets it: canonical and hreflang links are then absolute, as search engines expect.
  // Info, because the start waits for the "listening" line; output() shows only warnings and errors.
  const env = {
    PATH: process.env.PATH ?? "",
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
    PUBLIC_ORIGIN: origin,
    LOG_LEVEL: "info",
    // No balancer waits on its readiness: a stop need not drain.
    SHUTDOWN_DRAIN_MS: "0",
  };
  const server = await startServer({ name: "the server", env, logFile }).catch(async (err: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw err;
  });
  let output: string | undefined;
  return {
    origin,
    output: () => output ?? warningsIn(logFile),
    stop: async () => {
      await server.stop();
      output = warningsIn(logFile);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
