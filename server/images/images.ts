// `GET /portal/_img?url=&w=&q=`: one image variant, from the caches or made once for every concurrent request;
// in a cluster the primary keeps the image folder's one index, told by the workers (docs/behaviour.md#images).
import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import type { RequestHandler } from "express";
import { clientKeyOf } from "../admission/client-key.ts";
import type { MissGate } from "../admission/miss-budget.ts";
import { burstOf, tooManyMisses } from "../admission/miss-budget.ts";
import { SwrCache } from "../cache/swr-cache.ts";
import type { Config } from "../config.ts";
import { matchesIfNoneMatch } from "../http/etag-match.ts";
import type { Logger } from "../logger.ts";
import { DiskCache, type FolderKeeper, isVariantFileName } from "./disk-cache.ts";
import { parseImageQuery } from "./image-request.ts";
import { createImageFetchers, createSourceReader } from "./image-source.ts";
import { createImageVariants, FRESH_MS, type ImageVariant } from "./image-variants.ts";
import { outputChoiceFor } from "./output-format.ts";
import { ResizeQueue } from "./resize-queue.ts";

/** What the image endpoint reads of the configuration. */
interface ImageSettings {
  images: Config["images"];
  cache: { maxBytes: number; staleMs: number };
  /** Its origin's images are allowed. */
  apiBaseUrl: string | undefined;
  publicOrigin: string | undefined;
  missRatePerMin: number;
  upstreamTimeoutMs: number;
}

const FOLDER_MESSAGE = "portal:image-folder";

export interface FolderMessage {
  type: typeof FOLDER_MESSAGE;
  op: "stored" | "used";
  name: string;
  size?: number;
}

export function isFolderMessage(message: unknown): message is FolderMessage {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === FOLDER_MESSAGE;
}

export function folderReporter(send: (message: FolderMessage) => void): FolderKeeper {
  return {
    stored: (name, size) => send({ type: FOLDER_MESSAGE, op: "stored", name, size }),
    used: (name) => send({ type: FOLDER_MESSAGE, op: "used", name }),
  };
}

/** undefined: this process keeps its own folder. */
function clusterFolderKeeper(): FolderKeeper | undefined {
  if (!cluster.isWorker) return undefined;
  return folderReporter((message) => process.send?.(message));
}

export function keepImageFolder(dir: string, maxBytes: number, onError: (err: unknown) => void): (message: FolderMessage) => void {
  const index = new DiskCache(dir, maxBytes, onError);
  return (message) => {
    // A message can name nothing else in the folder, nor outside it.
    if (!isVariantFileName(message.name)) return;
    if (message.op === "used") void index.recordUsed(message.name);
    else if (Number.isSafeInteger(message.size) && (message.size as number) > 0)
      void index.recordStored(message.name, message.size as number);
  };
}

interface ImageEndpointDeps {
  settings: ImageSettings;
  /** The embedded content API's address when there is no API_BASE_URL. */
  upstreamUrl: string;
  mediaDir?: string;
  missBudget: MissGate;
  logger: Logger;
  /** Resizes at once; default one per core. */
  resizeSlots?: number;
  now?: () => number;
}

export interface ImageEndpoint {
  handler: RequestHandler;
  memory: SwrCache<ImageVariant>;
  disk: DiskCache;
  queue: ResizeQueue;
  close(): void;
}

/** A page's new images and more. */
const RESIZES_WAITING_PER_CLIENT = 64;
const RESIZES_WAITING = 1024;
const RESIZE_SOURCES_WAITING_BYTES = 256 * 1024 * 1024;

const CACHE_CONTROL = `public, max-age=${FRESH_MS / 1000}, stale-while-revalidate=604800`;

export function createImages(deps: ImageEndpointDeps): ImageEndpoint {
  const { settings, logger } = deps;
  const now = deps.now ?? Date.now;
  const upstreamOrigin = new URL(deps.upstreamUrl).origin;
  const allowed = new Set([...(settings.apiBaseUrl ? [new URL(settings.apiBaseUrl).origin] : []), ...settings.images.hosts]);
  const origins = { allowed, site: settings.publicOrigin, upstream: upstreamOrigin, allowSvg: settings.images.allowSvg };
  const onDiskError = (err: unknown) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, "image disk cache failed");
  const memory = new SwrCache<ImageVariant>({
    maxBytes: settings.cache.maxBytes,
    admission: true,
    staleMs: settings.cache.staleMs,
    sizeOf: (variant, key) => variant.body.length + key.length * 2 + 512,
    now,
    onRefreshError: (key, err) => logger.warn({ key, err: err instanceof Error ? err.message : String(err) }, "image refresh failed"),
  });
  const disk = new DiskCache(settings.images.cacheDir, settings.images.cacheMaxBytes, onDiskError, clusterFolderKeeper());
  const cores = availableParallelism();
  const queue = new ResizeQueue({
    slots: deps.resizeSlots ?? cores,
    // Never fewer than one burst of the client's miss budget: the budget refuses a flood first.
    maxWaitingPerClient: Math.max(RESIZES_WAITING_PER_CLIENT, burstOf(settings.missRatePerMin)),
    maxWaiting: RESIZES_WAITING,
    maxWaitingBytes: RESIZE_SOURCES_WAITING_BYTES,
  });
  const fetchers = createImageFetchers(settings.upstreamTimeoutMs);
  const readSource = createSourceReader({
    fetchers,
    upstreamOrigin,
    mediaDir: deps.mediaDir,
    maxBytes: settings.images.maxSourceBytes,
  });
  const variants = createImageVariants({ memory, disk, readSource, queue, now, onDiskError, allowSvg: settings.images.allowSvg });

  const handler: RequestHandler = async (req, res) => {
    const query = req.originalUrl.indexOf("?");
    const request = parseImageQuery(query === -1 ? "" : req.originalUrl.slice(query + 1), origins);
    const choice = outputChoiceFor(req.headers.accept);
    const key = variants.keyOf(request, choice);
    if (variants.startsWork(key, request)) {
      const admitted = await deps.missBudget.take(req.ip);
      if (!admitted.ok) throw tooManyMisses(admitted.retryAfterS);
    }
    const { value, status } = await variants.get(key, request, choice, clientKeyOf(req.ip));
    res.set({
      "Cache-Control": CACHE_CONTROL,
      Vary: "Accept",
      ETag: value.etag,
      "X-Cache": status,
    });
    if (matchesIfNoneMatch(req.headers["if-none-match"], value.etag)) {
      res.status(304).end();
      return;
    }
    res.type(value.contentType).set("Content-Length", String(value.body.length)).end(value.body);
  };
  return { handler, memory, disk, queue, close: fetchers.close };
}
