/**
 * The hourly enquiry limit as operators run it: the real process with WEB_CONCURRENCY=2 and
 * no Redis (the primary keeps the count, so two workers allow what one does), and instances
 * counting in Redis, where no key holds the client's address; and a worker whose primary
 * does not answer, which counts alone.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { clientKeyOf } from "../../server/admission/client-key.ts";
import { createApp } from "../../server/app.ts";
import { createFormKeys } from "../../server/enquiries/form-keys.ts";
import { testConfig } from "../support/config.ts";
import { describeWithRedis, siteKeyPrefix } from "../support/redis.ts";
import { exitOf, PROJECT_DIR, type ServerProcess, startServerProcess } from "../support/server-process.ts";

const FORM_SECRET = "limit-test-form-secret-0123456789abcdef";
const PUBLIC_ORIGIN = "https://www.example.com";
const keys = createFormKeys(FORM_SECRET);

/** A filled-in form whose token was served 10 seconds ago: past the 3-second minimum without waiting. */
const enquiry = (i: number) => ({
  name: "Wang Fang",
  email: "wang.fang@example.com",
  message: `Enquiry ${i}`,
  consent: true,
  token: keys.issue(Date.now() - 10_000, { lang: "zh-CN", site: PUBLIC_ORIGIN }),
  website: "",
});

/** A POST on a new connection each time, so the primary hands each one to the next worker. */
function postOnNewConnection(url: string, body: unknown): Promise<{ status: number; requestId: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: "POST", agent: false, headers: { connection: "close", "content-type": "application/json" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, requestId: String(res.headers["x-request-id"]) }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const entries = (server: ServerProcess) =>
  server.logs.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as { msg?: string; pid?: number; reqId?: string });

describe("the hourly enquiry limit with WEB_CONCURRENCY=2 and no Redis", () => {
  let dir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-enquiry-limit-"));
    server = await startServerProcess({
      WEB_CONCURRENCY: "2",
      DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
      IMAGE_CACHE_DIR: path.join(dir, "images"),
      FORM_SECRET,
      PUBLIC_ORIGIN,
      ENQUIRY_RATE_PER_HOUR: "5",
      LOG_LEVEL: "info",
    });
    await vi.waitFor(() => expect(entries(server).some((e) => e.msg === "all workers listening")).toBe(true), {
      timeout: 60_000,
      interval: 100,
    });
  }, 90_000);

  afterAll(async () => {
    if (server.child.exitCode === null) await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("accepts exactly 5 of 14 enquiries from one client, whichever worker each reaches", async () => {
    const answers: { status: number; requestId: string }[] = [];
    for (let i = 0; i < 14; i++) answers.push(await postOnNewConnection(`${server.origin}/api/portal/enquiry`, enquiry(i)));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(9);
    // Both workers answered some of them: the count is the cluster's, not one worker's.
    await vi.waitFor(() => {
      const pids = new Set(
        entries(server)
          .filter((e) => e.msg === "request" && answers.some((a) => a.requestId === e.reqId))
          .map((e) => e.pid),
      );
      expect(pids.size).toBe(2);
    });
  });
});

describeWithRedis("the hourly enquiry limit in Redis", (redisUrl) => {
  it("keeps no client address in any Redis key, only its keyed hash", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "portal-enquiry-limit-"));
    const address = "198.51.100.23";
    const env = {
      DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
      FORM_SECRET,
      PUBLIC_ORIGIN,
      TRUST_PROXY: "loopback",
      ENQUIRY_RATE_PER_HOUR: "2",
      REDIS_URL: redisUrl,
    };
    const app = createApp(testConfig(env), { upstreamUrl: "http://127.0.0.1:9" });
    const redis = new Redis(redisUrl);
    try {
      await app.portal.sharedTier?.connected();
      const post = (i: number) => request(app).post("/api/portal/enquiry").set("x-forwarded-for", address).send(enquiry(i));
      await post(0).expect(202);
      await post(1).expect(202);
      await post(2).expect(429);
      // Every key, this site's and any other's: none names the address.
      const stored = await redis.keys("*");
      expect(stored.filter((key) => key.includes(address))).toEqual([]);
      // The count is there, under a hash of its own: not the one the enquiry store keeps, so the two cannot be matched.
      const counts = stored.filter((key) => key.startsWith(`${siteKeyPrefix(env.DATABASE_URL)}limit:enquiry:`));
      expect(counts).toHaveLength(1);
      expect(counts[0]).not.toContain(keys.clientHash(clientKeyOf(address)));
    } finally {
      redis.disconnect();
      await app.portal.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("a cluster whose primary does not answer", () => {
  it("lets the worker count alone, and says so once", async () => {
    const child = spawn(path.join(PROJECT_DIR, "node_modules/.bin/tsx"), ["tests/support/silent-primary.ts"], {
      cwd: PROJECT_DIR,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    expect(await exitOf(child)).toBe(0);
    const lines = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { msg?: string; type?: string; answers?: unknown });
    const answers = lines.find((line) => line.type === "answers")?.answers as { ok: boolean; retryAfterS?: number }[];
    expect(answers.map((answer) => answer.ok)).toEqual([true, true, false]);
    expect(answers[2]?.retryAfterS).toBeGreaterThan(3500);
    expect(lines.filter((line) => line.msg?.startsWith("the cluster's primary did not answer"))).toHaveLength(1);
  });
});
