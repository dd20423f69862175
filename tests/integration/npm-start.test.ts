/**
 * `npm start` under a supervisor that stops it as a group and starts another once npm has
 * exited (or signals npm alone): npm must exit only after the server it started has drained
 * and let go of its port. And the environment it gives the server (docs/decisions/0011).
 */
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../harness/free-port.ts";
import { collectOutput, spawnNpm, stopGroup } from "../../harness/npm-start.ts";
import { PROJECT_DIR } from "../support/server-process.ts";

interface LogLine {
  msg?: string;
  pid?: number;
  port?: number;
}

const linesOf = (output: string): LogLine[] =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });

/** Whether another server could listen on `port` now, as a restarted one would. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The server `npm start` started, listening: its pid from its "listening" line. */
function listeningServer(npm: ChildProcess, output: () => string): Promise<LogLine> {
  return new Promise<LogLine>((resolve, reject) => {
    npm.stdout?.on("data", () => {
      const line = linesOf(output()).find((entry) => entry.msg === "listening");
      if (line) resolve(line);
    });
    npm.once("exit", (code) => reject(new Error(`npm start exited ${code} before listening:\n${output()}`)));
  });
}

describe("npm start stopped as a supervisor stops it", () => {
  let dir: string;
  let npm: ChildProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-npm-start-"));
  });
  afterEach(() => {
    // A server left running by an npm that exited first.
    if (npm?.pid) {
      try {
        process.kill(-npm.pid, "SIGKILL");
      } catch {}
    }
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ["its process group", (npm: ChildProcess) => -(npm.pid as number)],
    ["npm alone", (npm: ChildProcess) => npm.pid as number],
  ])(
    "exits after the server drained, stopped and freed its port, with the server's exit code: SIGTERM to %s",
    async (_, target) => {
      const port = await freePort();
      npm = spawnNpm(PROJECT_DIR, ["start"], {
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
        IMAGE_CACHE_DIR: path.join(dir, "images"),
        // A drain long enough that a supervisor seeing npm exit at once would start its next server on a port still held.
        SHUTDOWN_DRAIN_MS: "3000",
      });
      const output = collectOutput(npm);
      const child = npm;
      const listening = await listeningServer(child, output);
      expect(output()).toMatch(/^> \S+ prestart$/m);
      expect(listening.port).toBe(port);
      const serverPid = listening.pid as number;
      expect((await fetch(`http://127.0.0.1:${port}/portal/healthz`)).status).toBe(200);

      // What npm's exit finds: the supervisor's cue to start the next server.
      const atExit = new Promise<{ code: number | null; serverRunning: boolean; portFree: boolean }>((resolve) => {
        child.once("exit", async (code) => {
          const serverRunning = isRunning(serverPid);
          resolve({ code, serverRunning, portFree: await portIsFree(port) });
        });
      });
      const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
      process.kill(target(child), "SIGTERM");
      const exit = await atExit;
      expect(exit.serverRunning, output()).toBe(false);
      expect(exit.portFree, output()).toBe(true);
      expect(exit.code, output()).toBe(0);
      await closed;
      const said = linesOf(output())
        .map((entry) => entry.msg)
        .filter((msg) => msg?.startsWith("draining") || msg?.startsWith("stopping") || msg === "stopped");
      expect(said).toEqual(["draining: readiness is 503, still serving", "stopping: finishing requests in flight", "stopped"]);
      // npm, the start-up check and the server's first start on a loaded machine: their time is not what is tested.
    },
    120_000,
  );
});

describe("the environment npm start gives the server", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-npm-start-env-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** MALLOC_ARENA_MAX as the server process itself was started with it (glibc reads it there, once). */
  async function arenasOfServer(env: Record<string, string>): Promise<string | undefined> {
    const npm = spawnNpm(PROJECT_DIR, ["start"], {
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
      IMAGE_CACHE_DIR: path.join(dir, "images"),
      ...env,
    });
    try {
      const { pid } = await listeningServer(npm, collectOutput(npm));
      const environ = (await readFile(`/proc/${pid}/environ`, "utf8")).split("\0");
      return environ.find((entry) => entry.startsWith("MALLOC_ARENA_MAX="))?.slice("MALLOC_ARENA_MAX=".length);
    } finally {
      await stopGroup(npm);
    }
  }

  it.runIf(process.platform === "linux")(
    "two malloc arenas unless the operator names a number",
    async () => {
      expect(await arenasOfServer({})).toBe("2");
      expect(await arenasOfServer({ MALLOC_ARENA_MAX: "4" })).toBe("4");
    },
    120_000,
  );
});
