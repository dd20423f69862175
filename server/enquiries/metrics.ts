/** The enquiries' metrics (docs/behaviour.md#enquiries, "Metrics"). */
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { DeliveryEvents } from "./delivery.ts";
import type { Channel } from "./store.ts";

export type RefusalReason = "invalid" | "token" | "replayed" | "honeypot" | "too_fast" | "rate" | "unavailable" | "cross_site";

export interface EnquiryMetrics extends DeliveryEvents {
  received(): void;
  refused(reason: RefusalReason): void;
}

const GAUGE_READ_MS = 1000;

export function createEnquiryMetrics(registry: Registry, oldestPending: () => Promise<number | undefined>, now = Date.now): EnquiryMetrics {
  const received = new Counter({ name: "portal_enquiries_received_total", help: "Enquiries stored", registers: [registry] });
  const refused = new Counter({
    name: "portal_enquiries_refused_total",
    help: "Form posts not stored, by reason (spam among them, though it is told it was accepted)",
    labelNames: ["reason"],
    registers: [registry],
  });
  const delivered = new Counter({
    name: "portal_enquiries_delivered_total",
    help: "Enquiries delivered, by channel",
    labelNames: ["channel"],
    registers: [registry],
  });
  const retried = new Counter({
    name: "portal_enquiry_delivery_retries_total",
    help: "Delivery attempts that failed and were scheduled again",
    registers: [registry],
  });
  const failed = new Counter({
    name: "portal_enquiries_failed_total",
    help: "Enquiries given up on a channel after 24 hours",
    labelNames: ["channel"],
    registers: [registry],
  });
  const latency = new Histogram({
    name: "portal_enquiry_delivery_seconds",
    help: "From an enquiry's arrival to its delivery, by channel",
    labelNames: ["channel"],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 3600, 86_400],
    registers: [registry],
  });
  new Gauge({
    name: "portal_enquiry_oldest_undelivered_seconds",
    help: "Age of the oldest enquiry still waiting for a delivery (0: none)",
    aggregator: "max",
    registers: [registry],
    async collect() {
      const oldest = await Promise.race([
        oldestPending().catch(() => null),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), GAUGE_READ_MS).unref()),
      ]);
      if (oldest === null) return;
      this.set(oldest === undefined ? 0 : Math.max(0, (now() - oldest) / 1000));
    },
  });
  for (const channel of ["webhook", "mail"] satisfies Channel[]) {
    delivered.inc({ channel }, 0);
    failed.inc({ channel }, 0);
  }
  return {
    received: () => received.inc(),
    refused: (reason) => refused.inc({ reason }),
    delivered: (channel, latencyMs) => {
      delivered.inc({ channel });
      latency.observe({ channel }, latencyMs / 1000);
    },
    retried: () => retried.inc(),
    failed: (channel) => failed.inc({ channel }),
  };
}
