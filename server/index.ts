/**
 * The process: reads the environment, starts the embedded content API if needed, listens, and
 * stops (docs/behaviour.md#the-pieces, #stopping); a cluster primary under WEB_CONCURRENCY.
 */
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { createServer, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import v8 from "node:v8";
import { AggregatorRegistry, collectDefaultMetrics, Registry } from "prom-client";
import { createApp, type PortalApp } from "./app.ts";
import { announceListening, runPrimary } from "./cluster.ts";
import { type Config, ConfigError, parseConfig, WORKERS_FORM_SECRET, withoutCredentials } from "./config.ts";
import { type ContentApiThread, prepareContentDb, startContentApiThread } from "./content/api-thread.ts";
import { createLogger, type Logger } from "./logger.ts";
import { answerPrimary, type Phase, startInternalListener } from "./operations/operations.ts";
import { loadRedirectsFile, RedirectsFileError } from "./redirect-rules/redirect-rules.ts";
import type { RuleTable } from "./redirect-rules/rule-table.ts";
import { createRenderer } from "./render/render.ts";

/** Keeps the peak memory within its target (docs/decisions/0006-heap-growing-percent.md). */
const HEAP_GROWING_PERCENT = 50;

/** A bad rules file stops the start as a bad variable does: one line naming the file and the line. */
function readRedirects(config: Config): RuleTable | undefined {
  if (!config.redirectsFile) return undefined;
  try {
    return loadRedirectsFile(config.redirectsFile);
  } catch (err) {
    if (err instanceof RedirectsFileError) {
      process.stderr.write(`REDIRECTS_FILE ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

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

/** Once, before the content API (or the workers) open the same database. */
async function prepareEmbeddedDatabase(config: Config, logger: Logger): Promise<void> {
  if (config.apiBaseUrl) return;
  const prepared = await prepareContentDb(config.databaseUrl, config.seedContent);
  if (prepared === "loaded-demo") logger.info("loaded the demo site into an empty database");
  if (prepared === "empty")
    logger.warn("the content database holds no site (SEED_CONTENT=none): import one with npm run content -- import FILE");
}

interface Lifecycle {
  phase: Phase;
  metricsRegistry: Registry;
  app?: PortalApp;
}

async function main(): Promise<void> {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const config = readConfig();
  const redirectRules = readRedirects(config);
  // React picks its build from NODE_ENV itself: unset, pages would render with its slow development build.
  if (!config.dev) process.env.NODE_ENV = "production";
  const logger = createLogger(config.logLevel, { readable: config.dev });
  if (cluster.isPrimary && config.webConcurrency > 1) {
    if (config.dev) {
      logger.warn({ webConcurrency: config.webConcurrency }, "WEB_CONCURRENCY is ignored in development: one process");
    } else {
      // Workers inherit it, so each accepts the others' tokens. Not as FORM_SECRET: that one, set by the operator, is
      // shared by every instance, and keys the client hashes in Redis (docs/behaviour.md#client-keys-in-redis).
      if (!process.env.FORM_SECRET) process.env[WORKERS_FORM_SECRET] ??= randomBytes(32).toString("base64url");
      await runPrimary({
        workers: config.webConcurrency,
        logger,
        prepare: () => prepareEmbeddedDatabase(config, logger),
        // The workers' drain and grace, and a little more to close the database.
        stopGraceMs: config.shutdown.drainMs + config.shutdown.graceMs + 5000,
        internal: config.metrics,
        imageFolder: { dir: config.images.cacheDir, maxBytes: config.images.cacheMaxBytes },
      });
      return;
    }
  }
  const life: Lifecycle = { phase: "starting", metricsRegistry: new Registry() };
  // First, so probes read "starting" (503) while the database is prepared.
  if (config.metrics && cluster.isPrimary) await listenInternally(config.metrics, logger, life);
  if (cluster.isPrimary) await prepareEmbeddedDatabase(config, logger);
  await serve(config, logger, life, redirectRules);
}

/** A lone process's internal listener (docs/behaviour.md#metrics). */
async function listenInternally(internal: { host: string; port: number }, logger: Logger, life: Lifecycle): Promise<void> {
  const started = Date.now();
  await startInternalListener({
    ...internal,
    logger,
    endpoints: {
      metrics: async () => ({ contentType: life.metricsRegistry.contentType, body: await life.metricsRegistry.metrics() }),
      health: () => ({ status: "ok", pid: process.pid, uptimeS: Math.round((Date.now() - started) / 1000) }),
      notFound: async () => (life.app ? life.app.portal.missingPages.top() : []),
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

async function serve(config: Config, logger: Logger, life: Lifecycle, redirectRules: RuleTable | undefined): Promise<void> {
  let contentApi: ContentApiThread | undefined;
  let upstreamUrl = config.apiBaseUrl;
  let classify = config.classify;
  if (!upstreamUrl) {
    contentApi = await startContentApiThread({
      databaseUrl: config.databaseUrl,
      logs: { level: config.logLevel, readable: config.dev },
      onError: (err) => logger.error({ err }, "content API failed"),
      onExit: (err) => {
        // Without its content API it could only serve stale pages: let the supervisor start a whole one.
        logger.fatal({ err }, "the content API thread stopped");
        process.exit(1);
      },
      // An import replaces the whole site, and a scheduled item changes lists, counts, feeds and the sitemap:
      // hard, so the next visitor gets the new content; the search's refresh tells the search engines.
      onContentChanged: (cause) => {
        life.app?.portal.purger.purge({ all: true, tags: [], paths: [], mode: "hard" }, "content");
        if (cause === "import") logger.info("the content database got an import: purged the caches");
        else logger.info("a scheduled item is due: purged the caches");
      },
      previewParam: config.preview.param,
    });
    upstreamUrl = contentApi.url;
    classify ??= contentApi.classify;
  }

  const renderer = await createRenderer(config.dev);
  const { metricsRegistry } = life;
  collectDefaultMetrics({ register: metricsRegistry });
  if (cluster.isWorker) {
    // Constructing one is what makes a worker answer the primary's requests for its figures.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([metricsRegistry]);
  }
  const app = createApp(
    { ...config, classify },
    {
      upstreamUrl,
      logger,
      database: contentApi,
      renderer,
      metricsRegistry,
      phase: () => life.phase,
      redirectRules,
    },
  );
  life.app = app;
  if (cluster.isWorker) answerPrimary(app.portal.missingPages);
  app.portal.enquiries.start();
  app.portal.push.start();
  app.portal.search.start();
  // Shares from the first request when Redis is there; without it the instance starts on its own state.
  await app.portal.sharedTier?.connected();
  let stopping = false;
  let closing = false;
  // Each connection's latest answer, so a stop can make one under way its connection's last.
  const sockets = new Set<Socket>();
  const latest = new WeakMap<Socket, ServerResponse>();
  const closeAfter = (res: ServerResponse) => res.on("finish", () => setImmediate(() => server.closeIdleConnections()));
  const handle: RequestListener = (req, res) => {
    if (stopping) {
      // Clients reconnect, elsewhere once the balancer has read readiness. Idle connections are closed
      // only past the drain: during it a balancer may be reusing one at that very moment.
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

  const close = () => {
    closing = true;
    logger.info({ graceMs: config.shutdown.graceMs }, "stopping: finishing requests in flight");
    for (const socket of sockets) {
      const res = latest.get(socket);
      if (res && !res.writableFinished) closeAfter(res);
    }
    const force = setTimeout(() => server.closeAllConnections(), config.shutdown.graceMs).unref();
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
  /** SIGINT (Ctrl-C at a terminal, where no balancer waits) skips the drain. */
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
  // A driver's error may quote the connection string: its credentials never reach the log.
  process.stderr.write(`startup failed: ${withoutCredentials(err instanceof Error ? err.message : String(err))}\n`);
  process.exit(1);
});
