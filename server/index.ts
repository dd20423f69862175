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
 */
import cluster from "node:cluster";
import { createServer, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import v8 from "node:v8";
import { AggregatorRegistry, collectDefaultMetrics, Registry } from "prom-client";
import { createApp } from "./app.ts";
import { announceListening, runPrimary } from "./cluster.ts";
import { type Config, ConfigError, parseConfig, withoutCredentials } from "./config.ts";
import { type ContentApiThread, prepareContentDb, startContentApiThread } from "./content/api-thread.ts";
import { createLogger, type Logger } from "./logger.ts";
import { startInternalListener } from "./metrics/internal-listener.ts";
import { joinClusterPurges } from "./purge/cluster-relay.ts";
import { createDevRenderer } from "./render/dev-renderer.ts";
import { createProdRenderer } from "./render/prod-renderer.ts";

/**
 * V8 sizes its old generation for the machine's memory and, with collections this cheap,
 * lets render garbage pile up to about four times the live heap between full ones (a
 * worker near 260 MB under rendering load here). Growing the heap by at most half its
 * live size keeps the server under the reliability load (5 minutes, both caches at 16 MB)
 * at a 195 MB peak and 3,261 req/s, where three quarters let it reach 209 MB at 3,109 req/s
 * (docs/decisions/0006-heap-growing-percent.md). The flag is read at every collection, so
 * setting it at startup takes effect.
 */
const HEAP_GROWING_PERCENT = 50;

/** Time allowed for requests in flight to finish once a stop signal arrives. */
const SHUTDOWN_GRACE_MS = 10_000;

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
      await runPrimary({
        workers: config.webConcurrency,
        logger,
        prepare: () => prepareEmbeddedDatabase(config, logger),
        // Workers get their own grace period, then a little more to close the database.
        stopGraceMs: SHUTDOWN_GRACE_MS + 5000,
        internal: config.metrics,
      });
      return;
    }
  }
  // A lone process prepares the database itself; a cluster's workers find it prepared by the primary.
  if (cluster.isPrimary) await prepareEmbeddedDatabase(config, logger);
  await serve(config, logger);
}

/** One server process: the whole app on one port (alone, or as one cluster worker). */
async function serve(config: Config, logger: Logger): Promise<void> {
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
    });
    upstreamUrl = contentApi.url;
    classify ??= contentApi.classify;
  }

  const renderer = config.dev ? await createDevRenderer() : await createProdRenderer();
  const metricsRegistry = new Registry();
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
  const app = createApp({ ...config, classify, search }, { upstreamUrl, logger, database: contentApi, renderer, metricsRegistry });
  joinClusterPurges(app.portal.purger);
  app.portal.search.start();
  // Shares from the first request when Redis is there; a Redis that is not starts the instance on its own state.
  await app.portal.sharedTier?.connected();
  if (config.metrics && cluster.isPrimary) {
    const { cache, pageCache, upstream, readiness } = app.portal;
    const started = Date.now();
    await startInternalListener({
      ...config.metrics,
      logger,
      endpoints: {
        metrics: async () => ({ contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() }),
        health: () => ({ status: "ok", pid: process.pid, uptimeS: Math.round((Date.now() - started) / 1000) }),
        readiness: async () => ({
          ...(await readiness()),
          upstream: upstream.state(),
          caches: { api: cache.stats(), page: pageCache?.stats() },
        }),
      },
    }).catch((err: unknown) => {
      logger.fatal({ err }, "cannot listen on METRICS_PORT");
      process.exit(1);
    });
  }
  let stopping = false;
  // Each connection's latest answer, so that a stop can make an answer under way the last of
  // its keep-alive connection. Kept per connection, not per request: nothing to undo per answer.
  const sockets = new Set<Socket>();
  const latest = new WeakMap<Socket, ServerResponse>();
  const closeAfter = (res: ServerResponse) => res.on("finish", () => setImmediate(() => server.closeIdleConnections()));
  const handle: RequestListener = (req, res) => {
    if (stopping) {
      // Once stopping, every answer closes its connection, and a connection left idle is closed at once:
      // keep-alive clients cannot keep the process serving until the grace period cuts them off.
      res.setHeader("Connection", "close");
      closeAfter(res);
    } else {
      latest.set(req.socket, res);
    }
    app(req, res);
  };
  const server: Server = createServer(handle).listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
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

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping: finishing requests in flight");
    for (const socket of sockets) {
      const res = latest.get(socket);
      if (!res || res.writableFinished) continue;
      if (!res.headersSent) res.setHeader("Connection", "close");
      closeAfter(res);
    }
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    // close() stops accepting at once and calls back when every request has finished.
    server.close(async () => {
      clearTimeout(force);
      app.portal.close();
      await renderer.close?.();
      await contentApi?.close();
      logger.info("stopped");
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((err) => {
  // A driver's error may quote the connection string it was given: its credentials never reach the log.
  process.stderr.write(`startup failed: ${withoutCredentials(err instanceof Error ? err.message : String(err))}\n`);
  process.exit(1);
});
