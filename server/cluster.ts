/**
 * The cluster primary under WEB_CONCURRENCY > 1: prepares once, forks and replaces workers, relays
 * purges, keeps the image folder's index and the workers' client limits, and serves nothing itself (docs/operations.md, "Several processes").
 */
import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import { isLimitAsk, keepClusterLimits } from "./admission/cluster-limit.ts";
import { isFolderMessage, keepImageFolder } from "./images/images.ts";
import type { Logger } from "./logger.ts";
import { createWorkerAsker, startInternalListener } from "./operations/operations.ts";
import { isPurgeMessage } from "./purge/purge.ts";

interface PrimaryOptions {
  workers: number;
  logger: Logger;
  /** Once, before the first fork. */
  prepare?: () => Promise<void>;
  /** After a stop signal, before workers are killed. */
  stopGraceMs: number;
  /** First replacement delay; doubles per young death up to maxRestartDelayMs. */
  minRestartDelayMs?: number;
  maxRestartDelayMs?: number;
  /** A worker that lived this long resets its slot's delay. */
  stableAfterMs?: number;
  internal?: { host: string; port: number };
  /** The workers share it; its bound is kept here. */
  imageFolder?: { dir: string; maxBytes: number };
}

interface Slot {
  worker?: Worker;
  startedAt: number;
  delayMs: number;
  timer?: NodeJS.Timeout;
}

export async function runPrimary(options: PrimaryOptions): Promise<void> {
  const { workers, logger, stopGraceMs } = options;
  const minDelay = options.minRestartDelayMs ?? 250;
  const maxDelay = options.maxRestartDelayMs ?? 30_000;
  const stableAfter = options.stableAfterMs ?? 30_000;

  await options.prepare?.();

  const imageFolder = options.imageFolder;
  const keepFolder = imageFolder
    ? keepImageFolder(imageFolder.dir, imageFolder.maxBytes, (err) =>
        logger.warn({ err: err instanceof Error ? err.message : String(err) }, "image folder index failed"),
      )
    : undefined;

  const limits = keepClusterLimits();
  const slots: Slot[] = Array.from({ length: workers }, () => ({ startedAt: 0, delayMs: minDelay }));
  const slotOf = new Map<Worker, Slot>();
  let everListened = false;
  const listening = new Set<Worker>();
  let stopping = false;
  let failed = false;
  const missingPages = createWorkerAsker();

  const fork = (slot: Slot) => {
    slot.timer = undefined;
    slot.startedAt = Date.now();
    const worker = cluster.fork();
    slot.worker = worker;
    slotOf.set(worker, slot);
    // Not cluster's "listening" event: that also fires for the worker's own loopback content API.
    worker.on("message", (message: unknown) => {
      if (isPurgeMessage(message)) {
        for (const other of slots) if (other.worker && other.worker !== worker && other.worker.isConnected()) other.worker.send(message);
        return;
      }
      if (isLimitAsk(message)) {
        limits(worker, message);
        return;
      }
      if (isFolderMessage(message)) {
        keepFolder?.(message);
        return;
      }
      if (missingPages.receive(message)) return;
      if (!isListeningMessage(message) || listening.has(worker)) return;
      everListened = true;
      listening.add(worker);
      if (listening.size === workers) logger.info({ workers, port: message.port }, "all workers listening");
    });
  };

  const alive = () => slots.filter((s) => s.worker).length;

  const finish = () => {
    if (alive() > 0) return;
    for (const slot of slots) clearTimeout(slot.timer);
    logger.info({ workers }, failed ? "stopped: workers failed to start" : "stopped");
    process.exit(failed ? 1 : 0);
  };

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: alive() }, "stopping: forwarding to workers");
    for (const slot of slots) {
      clearTimeout(slot.timer);
      slot.timer = undefined;
      slot.worker?.process.kill(signal);
    }
    setTimeout(() => {
      for (const slot of slots) slot.worker?.process.kill("SIGKILL");
    }, stopGraceMs).unref();
    finish();
  };

  cluster.on("exit", (worker, code, signal) => {
    const slot = slotOf.get(worker);
    slotOf.delete(worker);
    listening.delete(worker);
    if (!slot || slot.worker !== worker) return;
    slot.worker = undefined;
    const workerPid = worker.process.pid;
    if (stopping) {
      logger.info({ workerPid, code, signal }, "worker stopped");
      finish();
      return;
    }
    if (!everListened) {
      // Nothing ever served: a configuration or environment problem that a restart will not fix.
      logger.fatal({ workerPid, code, signal }, "worker failed before listening; stopping");
      failed = true;
      stop("SIGTERM");
      return;
    }
    const lived = Date.now() - slot.startedAt;
    slot.delayMs = lived >= stableAfter ? minDelay : slot.delayMs;
    const delayMs = slot.delayMs;
    slot.delayMs = Math.min(slot.delayMs * 2, maxDelay);
    logger.error({ workerPid, code, signal, livedMs: lived, restartInMs: delayMs }, "worker exited unexpectedly; restarting");
    slot.timer = setTimeout(() => fork(slot), delayMs);
  });

  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  if (options.internal) {
    const aggregator = new AggregatorRegistry();
    const started = Date.now();
    await startInternalListener({
      ...options.internal,
      logger,
      endpoints: {
        metrics: async () => ({ contentType: aggregator.contentType, body: await aggregator.clusterMetrics() }),
        health: () => ({ status: "ok", pid: process.pid, uptimeS: Math.round((Date.now() - started) / 1000), workers: alive() }),
        notFound: () => missingPages.ask(slots.flatMap((slot) => (slot.worker ? [slot.worker] : []))),
        readiness: async () => {
          const status = stopping ? "draining" : listening.size === workers ? "ready" : "starting";
          return { ready: status === "ready", status, workers, listening: listening.size };
        },
      },
    }).catch((err: unknown) => {
      logger.fatal({ err }, "cannot listen on METRICS_PORT");
      process.exit(1);
    });
  }

  logger.info({ workers }, "starting workers");
  for (const slot of slots) fork(slot);
}

const LISTENING = "portal:listening";

/** A no-op outside a cluster. */
export function announceListening(port: number): void {
  if (cluster.isWorker) process.send?.({ type: LISTENING, port });
}

function isListeningMessage(message: unknown): message is { type: string; port: number } {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === LISTENING;
}
