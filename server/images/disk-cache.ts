/**
 * Image variants on disk, one file each (a header, then the image), least recently used removed
 * first; a file's modification time is its last use (docs/behaviour.md#images, "Caching").
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { LRUCache } from "lru-cache";
import type { Validator } from "./image-source.ts";

interface StoredVariant {
  body: Buffer;
  contentType: string;
  validator: Validator;
  /** Or last found unchanged at the source (ms since the epoch). */
  madeAt: number;
}

interface Header {
  key: string;
  contentType: string;
  validator: Validator;
  madeAt: number;
}

const NAME = /^[0-9a-f]{64}$/;
/** A younger temporary file may be another process's write, under way. */
const ABANDONED_MS = 60_000;

export interface FolderKeeper {
  stored(name: string, size: number): void;
  used(name: string): void;
}

export function isVariantFileName(name: string): boolean {
  return NAME.test(name);
}

export class DiskCache {
  private readonly index: LRUCache<string, number>;
  private readonly dir: string;
  private readonly onError: (err: unknown) => void;
  private readonly keeper: FolderKeeper | undefined;
  private loaded: Promise<void> | undefined;

  /** `keeper`: the index that keeps the folder's bound when this one does not (it then only forgets). */
  constructor(dir: string, maxBytes: number, onError: (err: unknown) => void, keeper?: FolderKeeper) {
    this.dir = dir;
    this.keeper = keeper;
    this.index = new LRUCache<string, number>({
      maxSize: maxBytes,
      sizeCalculation: (size) => Math.max(1, size),
      // Replaced entries were rewritten in place; only evicted and deleted ones leave the disk.
      dispose: (_size, name, reason) => {
        if (!keeper && (reason === "evict" || reason === "delete")) unlink(this.file(name)).catch(() => {});
      },
    });
    this.onError = onError;
  }

  async recordStored(name: string, size: number): Promise<void> {
    await this.ready();
    this.index.set(name, size);
    if (!this.index.has(name)) await unlink(this.file(name)).catch(() => {});
  }

  async recordUsed(name: string): Promise<void> {
    await this.ready();
    this.index.get(name);
  }

  /** On first use: an app that serves no image never touches the disk. */
  private ready(): Promise<void> {
    this.loaded ??= this.load().catch((err) => this.onError(err));
    return this.loaded;
  }

  /** False until the folder has been read, on the first image asked for. */
  has(key: string): boolean {
    return this.index.has(nameOf(key));
  }

  async read(key: string): Promise<StoredVariant | undefined> {
    await this.ready();
    const name = nameOf(key);
    if (this.index.get(name) === undefined) return undefined;
    const data = await readFile(this.file(name)).catch(() => undefined);
    const stored = data && parse(data, key);
    if (!stored) {
      this.index.delete(name);
      return undefined;
    }
    const now = new Date();
    utimes(this.file(name), now, now).catch(() => {});
    this.keeper?.used(name);
    return stored;
  }

  async write(key: string, variant: StoredVariant): Promise<void> {
    await this.ready();
    const name = nameOf(key);
    const header: Header = { key, contentType: variant.contentType, validator: variant.validator, madeAt: variant.madeAt };
    const head = Buffer.from(JSON.stringify(header));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(head.length);
    const data = Buffer.concat([length, head, variant.body]);
    const temporary = this.file(`${name}.${randomBytes(6).toString("hex")}.tmp`);
    await writeFile(temporary, data);
    await rename(temporary, this.file(name));
    this.index.set(name, data.length);
    // Larger than the whole bound: the index refused it, so the file goes too.
    if (!this.index.has(name)) await unlink(this.file(name)).catch(() => {});
    else this.keeper?.stored(name, data.length);
  }

  get bytes(): number {
    return this.index.calculatedSize;
  }

  private file(name: string): string {
    return path.join(this.dir, name);
  }

  private async load(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const files: { name: string; size: number; usedAt: number }[] = [];
    const now = Date.now();
    for (const name of await readdir(this.dir)) {
      if (name.endsWith(".tmp")) {
        const info = await stat(this.file(name)).catch(() => undefined);
        if (info && now - info.mtimeMs > ABANDONED_MS) await unlink(this.file(name)).catch(() => {});
        continue;
      }
      if (!NAME.test(name)) continue;
      const info = await stat(this.file(name)).catch(() => undefined);
      if (info?.isFile()) files.push({ name, size: info.size, usedAt: info.mtimeMs });
    }
    // Oldest first, so the most recently used end up last in line for eviction.
    files.sort((a, b) => a.usedAt - b.usedAt);
    for (const { name, size } of files) this.index.set(name, size);
  }
}

function nameOf(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

function parse(data: Buffer, key: string): StoredVariant | undefined {
  try {
    const length = data.readUInt32BE(0);
    const header = JSON.parse(data.subarray(4, 4 + length).toString()) as Header;
    if (header.key !== key) return undefined;
    return { body: data.subarray(4 + length), contentType: header.contentType, validator: header.validator, madeAt: header.madeAt };
  } catch {
    return undefined;
  }
}
