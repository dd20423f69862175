/** In a cluster the primary keeps the image folder's one index, told by the workers over IPC (docs/behaviour.md#images, "Caching"). */
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

export function folderReporter(send: (message: FolderMessage) => void): FolderKeeper {
  return {
    stored: (name, size) => send({ type: FOLDER_MESSAGE, op: "stored", name, size }),
    used: (name) => send({ type: FOLDER_MESSAGE, op: "used", name }),
  };
}

/** undefined: this process keeps its own folder. */
export function clusterFolderKeeper(): FolderKeeper | undefined {
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
