/**
 * The process: the only place that reads the environment, listens, and handles
 * SIGTERM/SIGINT. With no API_BASE_URL it starts the embedded content API in a thread
 * of its own (server/content/api-thread.ts: the database, the demo site loaded into an
 * empty one, the API on loopback); the app then reaches it through the same upstream
 * client as any external upstream.
 *
 * WEB_CONCURRENCY=N (N > 1) makes this process a cluster primary (server/cluster.ts)
 * that prepares the database once and forks N workers, each running `serve` below on
 * the shared port, each with its own caches and (embedded mode) its own content API.
 * SIGTERM drains (docs/behaviour.md#stopping): readiness 503 at once, serving on for
 * SHUTDOWN_DRAIN_MS, then requests in flight get SHUTDOWN_GRACE_MS to finish.
 */
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { createServer, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import v8 from "node:v8";
import { AggregatorRegistry, collectDefaultMetrics, Registry } from "prom-client";
import { createApp, type PortalApp } from "./app.ts";
import { announceListening, runPrimary } from "./cluster.ts";
import { type Config, ConfigError, parseConfig, withoutCredentials } from "./config.ts";
import { type ContentApiThread, prepareContentDb, startContentApiThread } from "./content/api-thread.ts";
import { clusterFolderKeeper } from "./images/folder-keeper.ts";
import { createLogger, type Logger } from "./logger.ts";
import type { Phase } from "./operations/health.ts";
import { startInternalListener } from "./operations/internal-listener.ts";
import { joinClusterPurges } from "./purge/cluster-relay.ts";
import { createDevRenderer } from "./render/dev-renderer.ts";
import { createProdRenderer } from "./render/prod-renderer.ts";

/**
 * V8 sizes its old generation for the machine's memory and, with collections this cheap,
 * lets render garbage pile up to several times the live heap between full ones. Growing
 * the heap by at most half its live size keeps the server's peak under the reliability
 * load within its target (figures in docs/decisions/0006-heap-growing-percent.md). The
 * flag is read at every collection, so setting it at startup takes effect.
 */
const HEAP_GROWING_PERCENT = 50;

function readConfig(): Config {
  try {
    return parseConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** Migrations and the demo load, once, before the content API (or the workers) open the same database. */
async function prepareEmbeddedDatabase(config: Config, logger: Logger): Promise<void> {
  if (config.apiBaseUrl) return;
  const prepared = await prepareContentDb(config.databaseUrl, config.seedContent);
  if (prepared === "loaded-demo") logger.info("loaded the demo site into an empty database");
  if (prepared === "empty")
    logger.warn("the content database holds no site (SEED_CONTENT=none): import one with npm run content -- import FILE");
}

/** What the internal listener and readiness read as the process goes: its phase, its metrics, and the app once made. */
interface Lifecycle {
  phase: Phase;
  metricsRegistry: Registry;
  app?: PortalApp;
}

async function main(): Promise<void> {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const config = readConfig();
  // React, loaded with the renderer, picks its build from NODE_ENV itself, not from our config: left unset
  // (`npm start`), pages would be rendered by its development build, several times slower. Workers inherit it.
  if (!config.dev) process.env.NODE_ENV = "production";
  const logger = createLogger(config.logLevel, { readable: config.dev });
  if (cluster.isPrimary && config.webConcurrency > 1) {
    if (config.dev) {
      logger.warn({ webConcurrency: config.webConcurrency }, "WEB_CONCURRENCY is ignored in development: one process");
    } else {
      // Workers inherit the environment: without FORM_SECRET they share one made here, so each accepts the others' tokens.
      process.env.FORM_SECRET ??= randomBytes(32).toString("base64url");
      await runPrimary({
        workers: config.webConcurrency,
        logger,
        prepare: () => prepareEmbeddedDatabase(config, logger),
        // Workers get their drain and grace periods, then a little more to close the database.
        stopGraceMs: config.shutdown.drainMs + config.shutdown.graceMs + 5000,
        internal: config.metrics,
        imageFolder: { dir: config.images.cacheDir, maxBytes: config.images.cacheMaxBytes },
      });
      return;
    }
  }
  const life: Lifecycle = { phase: "starting", metricsRegistry: new Registry() };
  // A lone process listens internally first, so probes read "starting" (503) while the database is prepared.
  if (config.metrics && cluster.isPrimary) await listenInternally(config.metrics, logger, life);
  // A lone process prepares the database itself; a cluster's workers find it prepared by the primary.
  if (cluster.isPrimary) await prepareEmbeddedDatabase(config, logger);
  await serve(config, logger, life);
}

/** The internal listener of a lone process: its own figures, and readiness with the detail the public one leaves out. */
async function listenInternally(internal: { host: string; port: number }, logger: Logger, life: Lifecycle): Promise<void> {
  const started = Date.now();
  await startInternalListener({
    ...internal,
    logger,
    endpoints: {
      metrics: async () => ({ contentType: life.metricsRegistry.contentType, body: await life.metricsRegistry.metrics() }),
      health: () => ({ status: "ok", pid: process.pid, uptimeS: Math.round((Date.now() - started) / 1000) }),
      readiness: async () => {
        if (!life.app || life.phase === "starting") return { ready: false, status: "starting" };
        const { cache, pageCache, upstream, readiness } = life.app.portal;
        return { ...(await readiness()), upstream: upstream.state(), caches: { api: cache.stats(), page: pageCache?.stats() } };
      },
    },
  }).catch((err: unknown) => {
    logger.fatal({ err }, "cannot listen on METRICS_PORT");
    process.exit(1);
  });
}

/** One server process: the whole app on one port (alone, or as one cluster worker). */
async function serve(config: Config, logger: Logger, life: Lifecycle): Promise<void> {
  let contentApi: ContentApiThread | undefined;
  let upstreamUrl = config.apiBaseUrl;
  let classify = config.classify;
  if (!upstreamUrl) {
    contentApi = await startContentApiThread({
      databaseUrl: config.databaseUrl,
      logs: { level: config.logLevel, readable: config.dev },
      onError: (err) => logger.error({ err }, "content API failed"),
      onExit: (err) => {
        // Without its content API this process can only serve stale pages: let the supervisor start a whole one.
        logger.fatal({ err }, "the content API thread stopped");
        process.exit(1);
      },
      // An import replaces the whole site: everything cached is out of date. Hard, so the next visitor gets the new content.
      onContentChanged: () => {
        life.app?.portal.purger.purge({ all: true, tags: [], paths: [], mode: "hard" }, "content");
        logger.info("the content database got an import: purged the caches");
      },
    });
    upstreamUrl = contentApi.url;
    classify ??= contentApi.classify;
  }

  const renderer = config.dev ? await createDevRenderer() : await createProdRenderer();
  const { metricsRegistry } = life;
  collectDefaultMetrics({ register: metricsRegistry });
  if (cluster.isWorker) {
    // A cluster's primary asks each worker for this registry and serves the sum; constructing
    // an AggregatorRegistry is what makes a worker answer those requests.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([metricsRegistry]);
  }
  // Each worker of a cluster keeps a search index of its own: one file written by several at once would not be atomic.
  const search = cluster.isWorker
    ? { ...config.search, indexPath: `${config.search.indexPath}.worker-${cluster.worker?.id}` }
    : config.search;
  const app = createApp(
    { ...config, classify, search },
    {
      upstreamUrl,
      logger,
      database: contentApi,
      renderer,
      metricsRegistry,
      imageFolderKeeper: clusterFolderKeeper(),
      phase: () => life.phase,
    },
  );
  life.app = app;
  joinClusterPurges(app.portal.purger);
  app.portal.enquiries.start();
  app.portal.search.start();
  // Shares from the first request when Redis is there; a Redis that is not starts the instance on its own state.
  await app.portal.sharedTier?.connected();
  let stopping = false;
  /** Past the drain: no longer accepting. */
  let closing = false;
  // Each connection's latest answer, so that a stop can make an answer under way the last of
  // its keep-alive connection. Kept per connection, not per request: nothing to undo per answer.
  const sockets = new Set<Socket>();
  const latest = new WeakMap<Socket, ServerResponse>();
  const closeAfter = (res: ServerResponse) => res.on("finish", () => setImmediate(() => server.closeIdleConnections()));
  const handle: RequestListener = (req, res) => {
    if (stopping) {
      // Once stopping, every answer closes its connection: keep-alive clients reconnect, to another
      // instance once the balancer has read readiness. Past the drain a connection left idle is closed
      // at once too, so none can keep the process serving until the grace period cuts it off. (Not
      // during the drain: a balancer may be reusing an idle connection at that very moment.)
      res.setHeader("Connection", "close");
      if (closing) closeAfter(res);
    } else {
      latest.set(req.socket, res);
    }
    app(req, res);
  };
  const server: Server = createServer(handle).listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    life.phase = "serving";
    logger.info({ port, host: config.host, upstream: config.apiBaseUrl ?? "embedded", database: contentApi?.dialect }, "listening");
    announceListening(port);
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("error", (err) => {
    logger.fatal({ err }, "cannot listen");
    process.exit(1);
  });
  // Behind a load balancer, idle keep-alive sockets should outlive its own (usually 60 s).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  /** Stops accepting, and exits 0 once the requests in flight are done (or cut off after the grace period). */
  const close = () => {
    closing = true;
    logger.info({ graceMs: config.shutdown.graceMs }, "stopping: finishing requests in flight");
    for (const socket of sockets) {
      const res = latest.get(socket);
      if (res && !res.writableFinished) closeAfter(res);
    }
    const force = setTimeout(() => server.closeAllConnections(), config.shutdown.graceMs).unref();
    // close() stops accepting at once and calls back when every request has finished.
    server.close(async () => {
      clearTimeout(force);
      await app.portal.close();
      await renderer.close?.();
      await contentApi?.close();
      logger.info("stopped");
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  /**
   * SIGTERM: readiness turns 503 at once while the process goes on serving for the drain, so a
   * load balancer takes it out of rotation before it stops accepting. SIGINT (Ctrl-C at a
   * terminal, where no balancer waits) stops without the drain.
   */
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    life.phase = "draining";
    const drainMs = signal === "SIGTERM" ? config.shutdown.drainMs : 0;
    logger.info({ signal, drainMs }, "draining: readiness is 503, still serving");
    for (const socket of sockets) {
      const res = latest.get(socket);
      if (res && !res.writableFinished && !res.headersSent) res.setHeader("Connection", "close");
    }
    setTimeout(close, drainMs);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((err) => {
  // A driver's error may quote the connection string it was given: its credentials never reach the log.
  process.stderr.write(`startup failed: ${withoutCredentials(err instanceof Error ? err.message : String(err))}\n`);
  process.exit(1);
});
