// Operations as the app mounts them: the metrics, health and readiness, and the access log; and the internal
// listener a lone process or a cluster's primary serves them on (docs/behaviour.md#health-and-logs, #metrics).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import type { MissGate } from "../admission/miss-budget.ts";
import type { Logger } from "../logger.ts";
import type { SharedTier } from "../redis/redis-connection.ts";
import { type AppMetrics, createAppMetrics } from "./app-metrics.ts";
import { createHealthRouter, createReadiness, type Phase, type Readiness } from "./health.ts";
import { countAsMissing, createMissingPages, type MissingPage, type MissingPagesLog } from "./missing-pages.ts";
import { missingPagesCsv } from "./missing-pages-csv.ts";
import { createRequestLog } from "./request-log.ts";

export { answerPrimary, createWorkerAsker } from "./cluster-missing-pages.ts";
export type { AppMetrics, MissingPage, MissingPagesLog, Phase, Readiness };
export { countAsMissing };

interface OperationsDeps {
  registry: Registry;
  counts: Parameters<typeof createAppMetrics>[1];
  logger: Logger;
  clientAddressOf: (req: IncomingMessage) => string | undefined;
  /** Redis, where the missing-pages log is shared; undefined: this instance's own. */
  sharedTier: SharedTier | undefined;
  /** The process's phase: a drain's readiness 503s are logged as what they are, expected. */
  phase?: () => Phase;
  now?: () => number;
}

export function createOperations({ registry, counts, logger, clientAddressOf, sharedTier, phase, now }: OperationsDeps) {
  const metrics = createAppMetrics(registry, counts);
  const missingPages = createMissingPages({ tier: sharedTier, now });
  metrics.registerMissingPages(() => missingPages.totals());
  const health = (deps: Parameters<typeof createReadiness>[0] & { missBudget: MissGate }) => {
    const readiness = createReadiness(deps);
    return { readiness, router: createHealthRouter({ readiness, missBudget: deps.missBudget }) };
  };
  const afterAnswer = missingPages.observe;
  const draining = () => phase?.() === "draining";
  return { metrics, health, missingPages, requestLog: createRequestLog({ logger, metrics, clientAddressOf, afterAnswer, draining }) };
}

interface InternalEndpoints {
  metrics(): Promise<{ contentType: string; body: string }>;
  /** The missing-pages log; absent: nothing to list yet (an empty one). */
  notFound?(): Promise<MissingPage[]>;
  health(): Record<string, unknown>;
  readiness(): Promise<{ ready: boolean; status?: string } & Record<string, unknown>>;
}

interface InternalListenerOptions {
  host: string;
  port: number;
  logger: Logger;
  endpoints: InternalEndpoints;
}

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
};

/** `GET /not-found`: JSON, or `?format=csv` a redirects file to fill in. */
async function sendNotFound(req: IncomingMessage, res: ServerResponse, endpoints: InternalEndpoints): Promise<void> {
  const url = req.url ?? "";
  const format = new URLSearchParams(url.includes("?") ? url.slice(url.indexOf("?") + 1) : "").getAll("format");
  if (format.length > 1 || (format.length === 1 && format[0] !== "json" && format[0] !== "csv")) {
    sendJson(res, 400, { error: "format must be json or csv" });
    return;
  }
  const pages = (await endpoints.notFound?.()) ?? [];
  if (format[0] !== "csv") {
    sendJson(res, 200, pages);
    return;
  }
  res.writeHead(200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": 'attachment; filename="not-found.csv"',
    "Cache-Control": "no-store",
  });
  res.end(missingPagesCsv(pages));
}

export function startInternalListener({ host, port, logger, endpoints }: InternalListenerOptions): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD" }).end();
      return;
    }
    const answer = async () => {
      if (path === "/metrics") {
        const { contentType, body } = await endpoints.metrics();
        res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" }).end(body);
      } else if (path === "/not-found") {
        await sendNotFound(req, res, endpoints);
      } else if (path === "/healthz") {
        sendJson(res, 200, endpoints.health());
      } else if (path === "/readyz") {
        const readiness = await endpoints.readiness();
        sendJson(res, readiness.ready ? 200 : 503, { ...readiness, status: readiness.status ?? (readiness.ready ? "ready" : "not ready") });
      } else {
        sendJson(res, 404, { error: "not found" });
      }
    };
    answer().catch((err: unknown) => {
      logger.error({ err, path }, "internal listener failed to answer");
      if (!res.headersSent) sendJson(res, 500, { error: "failed" });
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address() as AddressInfo;
      logger.info({ host: address.address, port: address.port }, "internal listener");
      resolve(server);
    });
  });
}
