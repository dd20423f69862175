// The access line and request metrics of every request, fast path included (docs/behaviour.md#logs).
import type { IncomingMessage, ServerResponse } from "node:http";
import { BASE_PATH } from "../../shared/routes.ts";
import type { CacheStatus } from "../cache/swr-cache.ts";
import type { Logger } from "../logger.ts";
import type { AppMetrics } from "./app-metrics.ts";
import { routeKindOf } from "./route-kind.ts";

interface RequestLogDeps {
  logger: Logger;
  metrics: AppMetrics;
  clientAddressOf: (req: IncomingMessage) => string | undefined;
  /** Told of every answer as it ends, with the URL as it arrived (Express may have rewritten req.url since). */
  afterAnswer?: (url: string, req: IncomingMessage, res: ServerResponse) => void;
  /** Whether the instance is draining: its readiness 503s are then what it was asked to say, not errors. */
  draining?: () => boolean;
}

interface RequestRecord {
  /** The cache status of an answer the fast path sent (its headers cannot be read back). */
  cache?: CacheStatus;
}

const MAX_URL_CHARS = 512;
const MAX_AGENT_CHARS = 256;

const isQuiet = (status: number, cache: unknown, url: string) => {
  if (status >= 400) return false;
  if (cache === "HIT" || cache === "STALE" || status === 304) return true;
  return routeKindOf(url, status) === "static";
};

const READINESS_PATH = `${BASE_PATH}/readyz`;

function levelOf(status: number, cache: unknown, url: string, draining: boolean): "debug" | "info" | "error" {
  if (isQuiet(status, cache, url)) return "debug";
  if (status < 500) return "info";
  return status === 503 && draining && url.split("?")[0] === READINESS_PATH ? "info" : "error";
}

export function createRequestLog({ logger, metrics, clientAddressOf, afterAnswer, draining }: RequestLogDeps) {
  return (req: IncomingMessage, res: ServerResponse): RequestRecord => {
    const record: RequestRecord = {};
    const url = req.url ?? "";
    const started = performance.now();
    const bytesBefore = req.socket.bytesWritten;
    res.once("finish", () => {
      const ms = performance.now() - started;
      const status = res.statusCode;
      metrics.observeRequest(url, status, ms / 1000);
      afterAnswer?.(url, req, res);
      const cache = record.cache ?? res.getHeader("x-cache") ?? res.getHeader("x-page-cache");
      const level = levelOf(status, cache, url, draining?.() ?? false);
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          reqId: res.getHeader("x-request-id"),
          client: clientAddressOf(req),
          method: req.method,
          url: url.slice(0, MAX_URL_CHARS),
          status,
          // As sent on the wire, headers included (nginx's $bytes_sent).
          bytes: req.socket.bytesWritten - bytesBefore,
          ms: Math.round(ms * 100) / 100,
          cache,
          ua: req.headers["user-agent"]?.slice(0, MAX_AGENT_CHARS),
        },
        "request",
      );
    });
    return record;
  };
}
