/** The process: where it listens, behind which proxies, how many workers, its metrics listener, how it stops and logs. */

import { z } from "zod";
import { trustedProxiesProblem } from "../trust-proxy.ts";
import { hostName, integer, ms } from "./value-kinds.ts";

const TRUST_PROXY_FORMS = "a hop count (such as 1), loopback, or the proxies' addresses/subnets joined by commas";
/** A count longer than the chain believes the client's own X-Forwarded-For entries: a mistake, never a need. */
const MAX_TRUSTED_HOPS = 10;

/** Checked as Express will compile it; what would trust every address is refused (docs/behaviour.md#configuration). */
const trustProxy = z
  .string()
  .trim()
  .transform((raw, ctx): false | number | string => {
    if (raw === "false") return false;
    const fail = (message: string) => {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    if (/^\d+$/.test(raw)) {
      const hops = Number(raw);
      return hops <= MAX_TRUSTED_HOPS ? hops : fail(`must be a hop count from 0 to ${MAX_TRUSTED_HOPS} (a proxy chain is rarely over 3)`);
    }
    if (raw.toLowerCase() === "true") {
      return fail(`must not be true (that trusts every hop, so any client could spoof its address): give ${TRUST_PROXY_FORMS}`);
    }
    const problem = trustedProxiesProblem(raw);
    if (problem && "everyone" in problem) {
      return fail(`must not trust every ${problem.everyone} address (its subnets together cover them all, as true does)`);
    }
    if (problem) return fail(`must be ${TRUST_PROXY_FORMS} (${problem.unreadable})`);
    return raw;
  });

export const listeningEnv = z.object({
  PORT: integer(0, 65535, "a port number from 0 to 65535").default(3000),
  HOST: hostName().default("0.0.0.0"),
  WEB_CONCURRENCY: integer(1, 64, "a whole number of worker processes from 1 to 64").default(1),
  TRUST_PROXY: trustProxy.optional(),
  METRICS_PORT: integer(0, 65535, "a port number from 0 to 65535").optional(),
  METRICS_HOST: hostName().default("127.0.0.1"),
  SHUTDOWN_DRAIN_MS: ms(600_000).default(5000),
  SHUTDOWN_GRACE_MS: ms(600_000).default(10_000),
  NODE_ENV: z.enum(["development", "production", "test"], "must be development, production or test").default("production"),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], "must be one of fatal, error, warn, info, debug, trace, silent")
    .default("info"),
});

export interface ListeningConfig {
  port: number;
  host: string;
  trustProxy?: false | number | string;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  dev: boolean;
  /** 1 runs no cluster at all. */
  webConcurrency: number;
  /** The internal listener; undefined: none. */
  metrics?: { port: number; host: string };
  /** docs/behaviour.md#stopping */
  shutdown: { drainMs: number; graceMs: number };
}

export function listeningSettings(e: z.output<typeof listeningEnv>): ListeningConfig {
  return {
    port: e.PORT,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    dev: e.NODE_ENV === "development",
    webConcurrency: e.WEB_CONCURRENCY,
    metrics: e.METRICS_PORT === undefined ? undefined : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    shutdown: { drainMs: e.SHUTDOWN_DRAIN_MS, graceMs: e.SHUTDOWN_GRACE_MS },
  };
}
