/**
 * IMAGE_CACHE_MB bounds the folder, however many workers write it: in a cluster the
 * primary holds the folder's one index (sizes, order of use) and removes what passes the
 * bound; each worker tells it, over IPC, what it stored and read, and removes nothing.
 */
import cluster from "node:cluster";
import { DiskCache, type FolderKeeper, isVariantFileName } from "./disk-cache.ts";

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

/** A keeper that is told by `send`: the messages the folder's keeper applies. */
export function folderReporter(send: (message: FolderMessage) => void): FolderKeeper {
  return {
    stored: (name, size) => send({ type: FOLDER_MESSAGE, op: "stored", name, size }),
    used: (name) => send({ type: FOLDER_MESSAGE, op: "used", name }),
  };
}

/** In a cluster worker, the primary keeps the folder; alone, a process keeps its own (undefined). */
export function clusterFolderKeeper(): FolderKeeper | undefined {
  if (!cluster.isWorker) return undefined;
  return folderReporter((message) => process.send?.(message));
}

/** The folder's one index, fed by the workers' messages (in the primary). */
export function keepImageFolder(dir: string, maxBytes: number, onError: (err: unknown) => void): (message: FolderMessage) => void {
  const index = new DiskCache(dir, maxBytes, onError);
  return (message) => {
    // Only a variant file's name: a message can name nothing else in the folder, nor outside it.
    if (!isVariantFileName(message.name)) return;
    if (message.op === "used") void index.recordUsed(message.name);
    else if (Number.isSafeInteger(message.size) && (message.size as number) > 0)
      void index.recordStored(message.name, message.size as number);
  };
}
