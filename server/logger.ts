import { type Logger, pino } from "pino";
import type { Config } from "./config.ts";

export type { Logger };

/** Development's access line reads `request GET /portal/index.html 200 3.1 ms MISS`. */
const READABLE = {
  translateTime: "SYS:HH:MM:ss.l",
  singleLine: true,
  messageFormat: "{msg}{if method} {method} {url} {status} {ms} ms{end}{if cache} {cache}{end}",
  ignore: "hostname,method,url,status,ms,cache",
};

/** One logger per app, so tests can silence it (docs/behaviour.md#logs); pino-pretty is never loaded in production. */
export function createLogger(level: Config["logLevel"], { readable = false } = {}): Logger {
  return pino({
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    ...(readable ? { transport: { target: "pino-pretty", options: READABLE } } : {}),
  });
}
