/**
 * Redis for the shared-tier tests. `testRedisUrl` is the server CI starts (.ci/redis.sh,
 * TEST_REDIS_URL); without it the suites are skipped, except in CI, where they fail.
 * `startRedisServer` runs a redis-server of a test's own on a free loopback port, for
 * tests that stop it and start it again.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { Redis } from "ioredis";
import { describe, it } from "vitest";

const MISSING =
  "CI is set but TEST_REDIS_URL is not: the shared-tier suite cannot run. " +
  "Start a server with `TEST_REDIS_URL=$(bash .ci/redis.sh) npx vitest run tests/integration/shared-tier.test.ts`.";

/** Declares `suite` with the URL of TEST_REDIS_URL's database `db` (each file its own, flushed by `emptyDatabase`). */
export function describeWithRedis(title: string, db: number, suite: (url: string) => void): void {
  const base = process.env.TEST_REDIS_URL;
  if (base) {
    describe(title, () => suite(`${base.replace(/\/\d*$/, "")}/${db}`));
  } else if (process.env.CI) {
    describe(title, () => {
      it("has a Redis to run against", () => {
        throw new Error(MISSING);
      });
    });
  } else {
    describe.skip(`${title} (TEST_REDIS_URL unset)`, () => {
      it("is skipped without TEST_REDIS_URL", () => {});
    });
  }
}

/** Removes every key of the database at `url`. */
export async function emptyDatabase(url: string): Promise<void> {
  const redis = new Redis(url);
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

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
