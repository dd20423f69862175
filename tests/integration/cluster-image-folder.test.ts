/**
 * WEB_CONCURRENCY=2 with one image folder: whichever worker made each variant, the folder
 * stays within IMAGE_CACHE_MB.
 */
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { countLogs, getOnNewConnection, lineOf } from "../support/cluster-requests.ts";
import { PROJECT_DIR, type ServerProcess, startServerProcess } from "../support/server-process.ts";

describe("WEB_CONCURRENCY=2 sharing one image folder", () => {
  let dir: string;
  let server: ServerProcess;
  const imageDir = () => path.join(dir, "images");

  /** Bytes of the variant files in the folder (temporary files are writes under way). */
  const folderBytes = async () => {
    let total = 0;
    for (const name of await readdir(imageDir()).catch(() => [])) {
      if (/^[0-9a-f]{64}$/.test(name)) total += (await stat(path.join(imageDir(), name)).catch(() => ({ size: 0 }))).size;
    }
    return total;
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "portal-cluster-images-"));
    server = await startServerProcess({
      WEB_CONCURRENCY: "2",
      DATABASE_URL: `sqlite:${path.join(dir, "portal.db")}`,
      IMAGE_CACHE_DIR: imageDir(),
      IMAGE_CACHE_MB: "1",
      LOG_LEVEL: "info",
    });
    await vi.waitFor(() => expect(countLogs(server, "all workers listening")).toBe(1), { timeout: 30_000, interval: 100 });
  }, 60_000);

  afterAll(async () => {
    if (server.child.exitCode === null) await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps the folder within IMAGE_CACHE_MB, whichever worker made each variant", async () => {
    const slides = (await readdir(path.join(PROJECT_DIR, "content/media"))).filter((name) => name.startsWith("slide-"));
    // Every slide at two widths and two qualities, as WebP: some 40 variants, several megabytes, made by both workers.
    const targets = slides.flatMap((name) =>
      [1280, 1920].flatMap((w) => [75, 90].map((q) => `/portal/_img?url=%2Fportal%2Fmedia%2F${name}&w=${w}&q=${q}`)),
    );
    const pids = new Set<number>();
    let made = 0;
    for (const target of targets) {
      const res = await getOnNewConnection(`${server.origin}${target}`, { accept: "image/webp", "x-request-id": `img-${made}` });
      expect(res.status).toBe(200);
      pids.add((await lineOf(server, "request", `img-${made}`)).pid as number);
      made++;
    }
    expect(pids.size).toBe(2);
    // The folder's one index removes what passes the bound, as the workers tell it what they stored.
    await vi.waitFor(async () => expect(await folderBytes()).toBeLessThanOrEqual(1024 * 1024), { timeout: 10_000, interval: 100 });
    expect(await folderBytes()).toBeGreaterThan(512 * 1024);
  }, 120_000);
});
