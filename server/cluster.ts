/**
 * WEB_CONCURRENCY > 1: this process becomes the cluster primary. It prepares what must
 * happen once (the embedded database's migrations and demo load), then forks N workers
 * that each run the whole server (server/index.ts) and share the listening port; the
 * primary hands out connections round-robin and serves nothing itself.
 *
 * A worker that dies unexpectedly is replaced, after a delay that doubles while
 * replacements keep dying young. SIGTERM/SIGINT are forwarded to every worker, which
 * drain (SIGTERM) and finish their requests in flight; the primary's readiness is 503
 * from the signal on, and it exits once all workers have exited. A worker
 * that fails before any worker has listened (a port in use, say) stops the start: the
 * primary stops the others and exits 1.
 *
 * The primary also relays each purge a worker received to every other worker, and keeps
 * the image folder's one index, which the workers tell what they stored and read.
 */
import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import { isFolderMessage, keepImageFolder } from "./images/folder-keeper.ts";
import type { Logger } from "./logger.ts";
import { startInternalListener } from "./operations/internal-listener.ts";
import { isPurgeMessage } from "./purge/cluster-relay.ts";

export interface PrimaryOptions {
  workers: number;
  logger: Logger;
  /** Runs once before the first fork (e.g. migrate and load the embedded database). */
  prepare?: () => Promise<void>;
  /** How long workers get to drain and finish after a stop signal before they are killed. */
  stopGraceMs: number;
  /** First replacement delay; doubles per young death up to maxRestartDelayMs. */
  minRestartDelayMs?: number;
  maxRestartDelayMs?: number;
  /** A worker that lived this long resets its slot's delay. */
  stableAfterMs?: number;
  /** The internal listener: its /metrics sums every worker's figures. */
  internal?: { host: string; port: number };
  /** The image folder (IMAGE_CACHE_DIR, IMAGE_CACHE_MB) the workers share: its bound is kept here. */
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

  const slots: Slot[] = Array.from({ length: workers }, () => ({ startedAt: 0, delayMs: minDelay }));
  const slotOf = new Map<Worker, Slot>();
  let everListened = false;
  const listening = new Set<Worker>();
  let stopping = false;
  let failed = false;

  const fork = (slot: Slot) => {
    slot.timer = undefined;
    slot.startedAt = Date.now();
    const worker = cluster.fork();
    slot.worker = worker;
    slotOf.set(worker, slot);
    // Not cluster's "listening" event: that also fires for the worker's own loopback content API.
    worker.on("message", (message: unknown) => {
      // A purge one worker received reaches all the others (server/purge/cluster-relay.ts).
      if (isPurgeMessage(message)) {
        for (const other of slots) if (other.worker && other.worker !== worker && other.worker.isConnected()) other.worker.send(message);
        return;
      }
      if (isFolderMessage(message)) {
        keepFolder?.(message);
        return;
      }
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
        // Each worker's own readiness (its upstream, its database) is its public /portal/readyz.
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

/** A worker tells the primary its public server is listening (a no-op outside a cluster). */
export function announceListening(port: number): void {
  if (cluster.isWorker) process.send?.({ type: LISTENING, port });
}

function isListeningMessage(message: unknown): message is { type: string; port: number } {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === LISTENING;
}
