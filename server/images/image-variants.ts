/**
 * Image variants in memory over the disk cache, checked against their source once stale; a
 * failed source is answered its failure for a while (docs/behaviour.md#images, "Caching").
 */
import { LRUCache } from "lru-cache";
import { etagOf } from "../cache/response-cache.ts";
import type { CacheOutcome, Loaded, SwrCache } from "../cache/swr-cache.ts";
import { HttpError } from "../http/errors.ts";
import type { DiskCache } from "./disk-cache.ts";
import { type ImageRequest, sourceKey } from "./image-request.ts";
import { isSourceFailure, type ReadSource, type Validator } from "./image-source.ts";
import type { OutputChoice } from "./output-format.ts";
import { resizeImage } from "./resize-image.ts";
import type { ResizeQueue } from "./resize-queue.ts";

export const FRESH_MS = 4 * 3_600_000;

export const FAILURE_MS = 60_000;
/** The source's failures, not our own refusals. */
const REMEMBERED = new Set([404, 410, 502, 504]);

export interface ImageVariant {
  body: Buffer;
  contentType: string;
  etag: string;
  validator: Validator;
  madeAt: number;
}

interface ImageVariantsOptions {
  memory: SwrCache<ImageVariant>;
  disk: DiskCache;
  readSource: ReadSource;
  queue: ResizeQueue;
  now: () => number;
  onDiskError: (err: unknown) => void;
  allowSvg: boolean;
  resizeDeadlineS?: number;
}

interface ImageVariants {
  keyOf(request: ImageRequest, choice: OutputChoice): string;
  /** Whether answering `key` now would read the source: what the miss budget charges. */
  startsWork(key: string, request: ImageRequest): boolean;
  /** `client`: whose line the resize waits in, if one is needed. */
  get(key: string, request: ImageRequest, choice: OutputChoice, client: string): Promise<CacheOutcome<ImageVariant>>;
}

export function createImageVariants(options: ImageVariantsOptions): ImageVariants {
  const { memory, disk, readSource, queue, now } = options;
  const failures = new LRUCache<string, { error: HttpError; until: number }>({ max: 10_000 });
  const failedRecently = (request: ImageRequest): HttpError | undefined => {
    const failure = failures.get(sourceKey(request.source));
    return failure && now() < failure.until ? failure.error : undefined;
  };

  const fresh = (variant: ImageVariant): Loaded<ImageVariant> => ({
    value: variant,
    freshForMs: Math.max(0, variant.madeAt + FRESH_MS - now()),
  });

  const keep = (key: string, variant: ImageVariant): Promise<void> => disk.write(key, variant).catch(options.onDiskError);

  async function fromSource(
    key: string,
    request: ImageRequest,
    choice: OutputChoice,
    client: string,
    kept?: ImageVariant,
  ): Promise<Loaded<ImageVariant>> {
    const failed = failedRecently(request);
    if (failed) {
      if (kept) return { value: kept, freshForMs: 0 };
      throw failed;
    }
    try {
      return await made(key, request, choice, client, kept);
    } catch (err) {
      if (err instanceof HttpError && REMEMBERED.has(err.status)) {
        failures.set(sourceKey(request.source), { error: err, until: now() + FAILURE_MS });
      }
      if (kept && isSourceFailure(err)) return { value: kept, freshForMs: 0 };
      throw err;
    }
  }

  async function made(
    key: string,
    request: ImageRequest,
    choice: OutputChoice,
    client: string,
    kept?: ImageVariant,
  ): Promise<Loaded<ImageVariant>> {
    const answer = await readSource(request.source, kept?.validator);
    if (!answer.changed && kept) {
      const confirmed = { ...kept, madeAt: now() };
      await keep(key, confirmed);
      return fresh(confirmed);
    }
    if (!answer.changed) throw new Error("the source answered unchanged to an unconditional read");
    const { bytes, validator } = answer;
    const resize = { allowSvg: options.allowSvg || answer.embedded === true, deadlineS: options.resizeDeadlineS };
    const resized = await queue.run(() => resizeImage(bytes, request.width, request.quality, choice, resize), {
      client,
      bytes: bytes.length,
    });
    const variant = { body: resized.body, contentType: `image/${resized.format}`, etag: etagOf(resized.body), validator, madeAt: now() };
    await keep(key, variant);
    return fresh(variant);
  }

  return {
    keyOf: (request, choice) => `${sourceKey(request.source)}\n${request.width}\n${request.quality}\n${choice}`,
    startsWork: (key, request) => memory.startsLoad(key) && !disk.has(key) && !failedRecently(request),
    get: (key, request, choice, client) =>
      memory.get(key, async () => {
        const stored = await disk.read(key);
        const kept = stored && { ...stored, etag: etagOf(stored.body) };
        if (kept && now() < kept.madeAt + FRESH_MS) return fresh(kept);
        return fromSource(key, request, choice, client, kept);
      }),
  };
}
