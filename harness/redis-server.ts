/**
 * A redis-server of the caller's own on a free loopback port, without persistence, that
 * can be killed (as a crash or an outage would) and started again on the same port,
 * empty: for the tests and the reliability run's instances section.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { track } from "./children.ts";
import { freePort } from "./free-port.ts";

export interface RedisServer {
  url: string;
  /** Kills the server, as a crash or an outage would. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    // DEBUG SLEEP lets a test make the server stop answering without closing its connections.
    const args = ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no", "--enable-debug-command", "local"];
    const started = spawn("redis-server", args, { stdio: ["ignore", "pipe", "inherit"] });
    track(started);
    child = started;
    let output = "";
    await new Promise<void>((resolve, reject) => {
      started.once("error", reject);
      started.once("exit", (code) => reject(new Error(`redis-server exited (${code}) before it was ready: ${output}`)));
      started.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) resolve();
      });
    });
    started.removeAllListeners("exit");
    started.stdout?.resume();
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
    },
  };
}
