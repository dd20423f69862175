/**
 * The outbox: every instance leases the enquiries due, one lease per enquiry renewed while it
 * is worked, and sends each channel still pending at once and apart from the others, retrying
 * from the state in the database (docs/behaviour.md#enquiries, "Delivery").
 */
import { type EnquiryConfig, withoutCredentials } from "../config.ts";
import type { Logger } from "../logger.ts";
import { createChannels, WEBHOOK_TIMEOUT_MS } from "./channels.ts";
import type { AttemptEnd, Channel, Enquiry, EnquiryStore } from "./store.ts";

const DELIVERY_HORIZON_MS = 24 * 3600_000;
const BACKOFF_BASE_MS = 5000;
const BACKOFF_MAX_MS = 3600_000;
const POLL_MS = 2000;
/** Renewed every third of it while the enquiry is worked: how long one outlives an instance that stopped. */
const LEASE_MS = 30_000;
/** Enquiries worked at once by one instance: a bound on its connections to the receivers. */
const SLOTS = 16;

export interface DeliveryEvents {
  delivered(channel: Channel, latencyMs: number): void;
  retried(): void;
  failed(channel: Channel): void;
}

export interface Deliverer {
  start(): void;
  /** Looks for enquiries due now rather than at the next poll. */
  kick(): void;
  /** Resolves once every delivery under way has ended; none starts after. */
  stop(): Promise<void>;
}

interface DelivererOptions {
  store: EnquiryStore;
  config: EnquiryConfig;
  logger: Logger;
  events: DeliveryEvents;
  now?: () => number;
  backoffBaseMs?: number;
  pollMs?: number;
  /** Tests shorten them, to outlast a lease many times over in seconds. */
  leaseMs?: number;
  webhookTimeoutMs?: number;
}

function backoffMs(attempts: number, baseMs: number, random = Math.random): number {
  const full = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
  return Math.round(full / 2 + random() * (full / 2));
}

export function createDeliverer({
  store,
  config,
  logger,
  events,
  now = Date.now,
  backoffBaseMs = BACKOFF_BASE_MS,
  pollMs = POLL_MS,
  leaseMs = LEASE_MS,
  webhookTimeoutMs = WEBHOOK_TIMEOUT_MS,
}: DelivererOptions): Deliverer {
  const senders = createChannels(config, { now, webhookTimeoutMs });

  /** An enquiry being worked: the end of its lease as written, and its lease's writes one after another. */
  interface Held {
    until: number;
    lost: boolean;
    renewing: boolean;
    queue: Promise<unknown>;
  }
  const working = new Map<string, Held>();
  const inOrder = <T>(held: Held, write: () => Promise<T>): Promise<T> => {
    const done = held.queue.then(write);
    held.queue = done.catch(() => {});
    return done;
  };

  /** One channel: undefined once delivered (and written so), else why not. */
  async function send(enquiry: Enquiry, channel: Channel): Promise<string | undefined> {
    try {
      await senders[channel](enquiry);
      await store.markChannel(enquiry.id, channel, "delivered");
      events.delivered(channel, now() - enquiry.created_at);
      return undefined;
    } catch (error) {
      return `${channel}: ${withoutCredentials(error instanceof Error ? error.message : String(error))}`;
    }
  }

  async function deliver(enquiry: Enquiry, held: Held): Promise<void> {
    const pending = (["webhook", "mail"] as const).filter((channel) => enquiry[`${channel}_state`] === "pending");
    // Each channel at once: a receiver that is slow or hangs holds up no other.
    const outcomes = await Promise.all(pending.map((channel) => send(enquiry, channel)));
    const left = pending.filter((_, i) => outcomes[i] !== undefined);
    const attempts = enquiry.attempts + 1;
    const lastError = outcomes.filter(Boolean).join("; ").slice(0, 500) || null;
    const next = now() + backoffMs(attempts, backoffBaseMs);
    const expired = left.length > 0 && next - enquiry.created_at > DELIVERY_HORIZON_MS;
    const end: AttemptEnd = {
      attempts,
      nextAttemptAt: left.length === 0 || expired ? null : next,
      lastError: left.length === 0 ? null : lastError,
      failed: expired ? left : [],
    };
    const finished = await inOrder(held, () => store.finishAttempt(enquiry.id, held.until, end));
    if (!finished) {
      logger.warn(
        { enquiry: enquiry.id },
        "an enquiry's lease ran out while it was delivered: its outcome is left to the instance holding it",
      );
      return;
    }
    if (left.length === 0) return;
    if (expired) {
      for (const channel of left) events.failed(channel);
      logger.error(
        { enquiry: enquiry.id, channels: left, attempts, err: lastError },
        "enquiry not delivered within 24 hours: marked failed",
      );
      return;
    }
    events.retried();
    logger.warn(
      { enquiry: enquiry.id, channels: left, attempts, retryInMs: next - now(), err: lastError },
      "enquiry delivery failed: will retry",
    );
  }

  let unreachableLogged = false;
  const databaseFailed = (error: unknown) => {
    if (!unreachableLogged)
      logger.warn(
        { err: withoutCredentials(error instanceof Error ? error.message : String(error)) },
        "enquiry delivery cannot reach the database",
      );
    unreachableLogged = true;
  };

  const tasks = new Set<Promise<void>>();
  function begin(enquiry: Enquiry, leaseUntil: number): void {
    const held: Held = { until: leaseUntil, lost: false, renewing: false, queue: Promise.resolve() };
    working.set(enquiry.id, held);
    const task = deliver(enquiry, held)
      .catch(databaseFailed)
      .finally(() => {
        working.delete(enquiry.id);
        tasks.delete(task);
        run();
      });
    tasks.add(task);
  }

  async function renew(): Promise<void> {
    await Promise.all(
      [...working].map(async ([id, held]) => {
        // One renewal at a time: a database that is slow to answer gets no queue of them.
        if (held.lost || held.renewing) return;
        held.renewing = true;
        const until = now() + leaseMs;
        const renewed = await inOrder(held, async () => {
          const kept = await store.renewLease(id, held.until, until);
          if (kept) held.until = until;
          return kept;
        })
          .catch((error: unknown) => {
            databaseFailed(error);
            return true;
          })
          .finally(() => {
            held.renewing = false;
          });
        // Said once, as the attempt ends and cannot write its outcome.
        if (!renewed) held.lost = true;
      }),
    );
  }

  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  async function pass(): Promise<void> {
    for (;;) {
      const room = SLOTS - working.size;
      if (room <= 0 || stopped) return;
      const at = now();
      const due = await store.claimDue(at, at + leaseMs, room);
      for (const enquiry of due) begin(enquiry, at + leaseMs);
      if (due.length < room) return;
    }
  }

  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .then(() => {
        unreachableLogged = false;
      }, databaseFailed)
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };
  let poller: NodeJS.Timeout | undefined;
  let renewer: NodeJS.Timeout | undefined;

  return {
    start() {
      if (poller || stopped) return;
      poller = setInterval(run, pollMs).unref();
      renewer = setInterval(() => void renew(), leaseMs / 3).unref();
      run();
    },
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(poller);
      await running;
      // Leases are renewed until the last delivery under way has ended.
      while (tasks.size > 0) await Promise.all(tasks);
      clearInterval(renewer);
    },
  };
}
