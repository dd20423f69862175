/**
 * WEB_CONCURRENCY refusing to start: a bad value exits 1 with one line naming it, and a
 * taken port stops the primary instead of restarting workers for ever.
 */
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exitOf, refusedStart, runServerScript } from "../support/server-process.ts";

describe("WEB_CONCURRENCY with a bad value", () => {
  it.each(["0", "65", "two"])("exits 1 with one line naming it (%s)", async (value) => {
    const { code, lines } = await refusedStart({ WEB_CONCURRENCY: value });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^WEB_CONCURRENCY must be a whole number of worker processes from 1 to 64/);
  });
});

describe("WEB_CONCURRENCY=2 when the port is taken", () => {
  let dir: string;
  let blocker: http.Server;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-cluster-taken-"));
    blocker = http.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => blocker.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it("does not keep restarting workers: it stops and exits 1", async () => {
    const { port } = blocker.address() as AddressInfo;
    const child = runServerScript({
      WEB_CONCURRENCY: "2",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
      LOG_LEVEL: "info",
    });
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    expect(await exitOf(child)).toBe(1);
    const messages = stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toContain("cannot listen");
    expect(messages).toContain("worker failed before listening; stopping");
    expect(messages).not.toContain("worker exited unexpectedly; restarting");
  }, 60_000);
});
