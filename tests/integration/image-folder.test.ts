/**
 * One image folder written by two processes' disk caches (as a cluster's workers), kept
 * by one index fed with the messages they send: the folder stays within its bound, and a
 * message can remove nothing but variant files. Real files in a temporary folder.
 */
import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DiskCache } from "../../server/images/disk-cache.ts";
import { type FolderMessage, folderReporter, keepImageFolder } from "../../server/images/images.ts";

const BOUND = 256 * 1024;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "portal-image-folder-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const folderBytes = async () => {
  let total = 0;
  for (const name of await readdir(dir)) total += (await stat(path.join(dir, name))).size;
  return total;
};

const variant = (n: number) => ({
  body: Buffer.alloc(20 * 1024, n),
  contentType: "image/webp",
  validator: { etag: `"${n}"` },
  madeAt: 0,
});

describe("two workers' caches on one folder", () => {
  it("keep the folder within the bound, each worker still reading what the other stored", async () => {
    const onError = (err: unknown) => {
      throw err;
    };
    const keep = keepImageFolder(dir, BOUND, onError);
    const workers = [0, 1].map(() => new DiskCache(dir, BOUND, onError, folderReporter(keep)));
    // 40 variants of 20 kB, 800 kB in all: three times the bound, each worker alone within it.
    for (let n = 0; n < 40; n++) await workers[n % 2]?.write(`variant ${n}`, variant(n));
    await vi.waitFor(async () => expect(await folderBytes()).toBeLessThanOrEqual(BOUND), { interval: 20 });
    // The most recent are kept, whoever wrote them; a restarted worker reads them.
    const restarted = new DiskCache(dir, BOUND, onError, folderReporter(keep));
    expect((await restarted.read("variant 39"))?.body.equals(variant(39).body)).toBe(true);
    expect(await restarted.read("variant 0")).toBeUndefined();
  });

  it("removes nothing but a variant file a message names", async () => {
    const keep = keepImageFolder(dir, 1, () => {});
    await writeFile(path.join(dir, "keep.txt"), "not a variant");
    for (const name of ["keep.txt", "../keep.txt", `${"a".repeat(64)}/../keep.txt`]) {
      keep({ type: "portal:image-folder", op: "stored", name, size: 100 } satisfies FolderMessage);
    }
    // A message the keeper acts on, so the ones before it have been handled when it is.
    const real = "b".repeat(64);
    await writeFile(path.join(dir, real), "x".repeat(10));
    keep({ type: "portal:image-folder", op: "stored", name: real, size: 10 });
    await vi.waitFor(async () => expect(await readdir(dir)).toEqual(["keep.txt"]), { interval: 20 });
  });
});
