import { type Logger, pino } from "pino";
import type { Config } from "./config.ts";

export type { Logger };

/** Structured JSON logs on stdout; one logger per app so tests can silence it. */
export function createLogger(level: Config["logLevel"]): Logger {
  return pino({
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}
