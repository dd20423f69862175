/** The metrics of telling search engines (docs/behaviour.md#telling-search-engines, "Metrics"). */
import { Counter, Gauge, type Registry } from "prom-client";
import type { PushEvents } from "./push-sender.ts";
import type { PushEngine } from "./push-store.ts";

const GAUGE_READ_MS = 1000;

export function createPushMetrics(
  registry: Registry,
  engines: readonly PushEngine[],
  oldestWaiting: () => Promise<number | undefined>,
  now = Date.now,
): PushEvents {
  const addresses = new Counter({
    name: "portal_push_addresses_total",
    help: "Addresses told to a search engine (sent), tried and to be retried (failed), or given up (dropped), by engine",
    labelNames: ["engine", "outcome"],
    registers: [registry],
  });
  const remain = new Gauge({
    name: "portal_push_baidu_remaining",
    help: "Addresses Baidu said it would still take today, as of its last answer",
    aggregator: "min",
    registers: [registry],
  });
  new Gauge({
    name: "portal_push_oldest_waiting_seconds",
    help: "Age of the oldest address waiting to be sent to a search engine (0: none)",
    aggregator: "max",
    registers: [registry],
    async collect() {
      const oldest = await Promise.race([
        oldestWaiting().catch(() => null),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), GAUGE_READ_MS).unref()),
      ]);
      if (oldest === null) return;
      this.set(oldest === undefined ? 0 : Math.max(0, (now() - oldest) / 1000));
    },
  });
  for (const engine of engines) for (const outcome of ["sent", "failed", "dropped"]) addresses.inc({ engine, outcome }, 0);
  return {
    sent: (engine, count) => addresses.inc({ engine, outcome: "sent" }, count),
    failed: (engine, count) => addresses.inc({ engine, outcome: "failed" }, count),
    dropped: (engine, count) => addresses.inc({ engine, outcome: "dropped" }, count),
    remain: (count) => remain.set(count),
  };
}
