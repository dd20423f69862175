/**
 * The flood section's clients: one sending misses at a pace from an address of its own (the flood's, or one that
 * spends its budget and no more), and others asking, one address each, for pages nobody asked for before.
 */
import http from "node:http";
import { exchange, type Outcome } from "./traffic.ts";

/** The server's default (server/config/cache.ts), so the run shows what a deployment gets. */
export const MISS_RATE_PER_MIN = 600;
/** The bucket holds a tenth of the minute's budget (server/admission/miss-budget.ts). */
export const BURST = MISS_RATE_PER_MIN / 10;
/** The flooding client's requests a second, sent whatever the answers (an open loop), and the most it keeps in flight. */
export const FLOOD_PER_S = 300;
export const FLOOD_MAX_IN_FLIGHT = 256;
const COLD_EVERY_MS = 400;

/** The flooding client's n-th request: a rotation of the four kinds of miss. */
function floodPath(idBase: number, n: number): string {
  const id = idBase + n;
  switch (n % 4) {
    case 0:
      return `/portal/message/news/${id}`;
    case 1:
      return `/api/portal/message/news/${id}`;
    case 2:
      return `/api/portal/reader/reader?type=2&pid=${id}`;
    default:
      return "/portal/readyz";
  }
}

const fromAddress = (address: string) => new http.Agent({ keepAlive: true, localAddress: address, maxSockets: FLOOD_MAX_IN_FLIGHT });

/** How many requests are due `ms` after the start. */
type Pace = (ms: number) => number;

/** The flood's pace: FLOOD_PER_S, whatever the answers (an open loop). */
export const floodPace: Pace = (ms) => Math.floor((ms * FLOOD_PER_S) / 1000);

/** A client spending its whole budget and no more: its burst at the flood's pace, then the budget's rate. */
export const budgetPace: Pace = (ms) => {
  const burstMs = (BURST * 1000) / FLOOD_PER_S;
  return ms < burstMs ? floodPace(ms) : BURST + Math.floor(((ms - burstMs) * MISS_RATE_PER_MIN) / 60_000);
};

/** Sends requests from `address` at `pace` until stopped; each outcome is kept. */
export function startMisses(origin: string, pace: Pace, address: string, idBase: number) {
  const agent = fromAddress(address);
  const outcomes: Outcome[] = [];
  const t0 = Date.now();
  let n = 0;
  let inFlight = 0;
  let skipped = 0;
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const due = pace(Date.now() - t0);
    while (n < due) {
      if (inFlight >= FLOOD_MAX_IN_FLIGHT) {
        skipped += due - n;
        n = due;
        break;
      }
      inFlight++;
      const sent = exchange(origin, { path: floodPath(idBase, n++) }, agent, 15_000, t0).then((outcome) => {
        inFlight--;
        outcomes.push(outcome);
      });
      pending.add(sent);
      sent.finally(() => pending.delete(sent));
    }
  }, 10);
  return {
    outcomes,
    skipped: () => skipped,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
      agent.destroy();
      return (Date.now() - t0) / 1000;
    },
  };
}

/** Pages and answers of real items nobody asked for before, in `groups` groups: one for each run, so none is asked for twice. */
export function coldTargets(ids: { news: number[]; notices: number[] }, groups: number): string[][] {
  const targets = [
    ...ids.notices.map((id) => `/portal/message/notice/${id}`),
    ...ids.news.filter((id) => id > 2).map((id) => `/api/portal/message/news/${id}`),
  ];
  return Array.from({ length: groups }, (_, g) => targets.filter((_, i) => i % groups === g));
}

/** Other clients, one address each, asking in turn for `targets`. */
export function startColdClients(origin: string, targets: string[]) {
  const outcomes: Outcome[] = [];
  let k = 0;
  const pending: Promise<void>[] = [];
  const timer = setInterval(() => {
    const target = targets[k % targets.length] as string;
    const agent = fromAddress(`127.0.0.${3 + (k % 200)}`);
    k++;
    pending.push(
      exchange(origin, { path: target }, agent).then((outcome) => {
        outcomes.push(outcome);
        agent.destroy();
      }),
    );
  }, COLD_EVERY_MS);
  return {
    outcomes,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
    },
  };
}
