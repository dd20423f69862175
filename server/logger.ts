import { type Logger, pino } from "pino";
import type { Config } from "./config.ts";

export type { Logger };

/** Development's lines: an access line reads `request GET /portal/index.html 200 3.1 ms MISS`, other fields follow on the line. */
const READABLE = {
  translateTime: "SYS:HH:MM:ss.l",
  singleLine: true,
  messageFormat: "{msg}{if method} {method} {url} {status} {ms} ms{end}{if cache} {cache}{end}",
  ignore: "hostname,method,url,status,ms,cache",
};

/**
 * Structured JSON logs on stdout, each line with the process id (which worker wrote it);
 * one logger per app so tests can silence it. `readable` (development) prints them as
 * coloured lines through pino-pretty, a development dependency: production never loads it.
 */
export function createLogger(level: Config["logLevel"], { readable = false } = {}): Logger {
  return pino({
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    ...(readable ? { transport: { target: "pino-pretty", options: READABLE } } : {}),
  });
}
