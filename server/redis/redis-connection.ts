// The connection to Redis, which helps an answer but never decides whether there is one: every call has a
// deadline and a fallback (docs/operations.md#several-instances-redis_url).
import { createHash } from "node:crypto";
import { Redis, type RedisOptions } from "ioredis";
import type { Logger } from "../logger.ts";

/** The client's own limit, a backstop behind the deadline: a command unanswered this long (or twice the deadline) is dropped. */
const COMMAND_TIMEOUT_MS = 1000;
const PROBE_EVERY_MS = 1000;
const RECONNECT_MAX_MS = 1000;
/** The format's version and then the site's id start every key, so two releases never read each other's entries. */
const KEY_PREFIX = "portal:v1:";

export type SharedTierState = "connecting" | "connected" | "unavailable";

export interface SharedTier {
  run<T, F>(op: (redis: Redis) => Promise<T>, fallback: F): Promise<T | F>;
  state(): SharedTierState;
  connected(): Promise<void>;
  onResume(listener: () => void): void;
  key(...parts: string[]): string;
  /** The client, for libraries that take one (rate-limiter-flexible); call it only inside `run`. */
  readonly redis: Redis;
  openSubscriber(): Redis;
  /** Something read back was not as this server writes it: the caller treats it as absent; logged once per `what`. */
  malformed(what: string, detail: Record<string, unknown>): void;
  close(): void;
}

/** Hashed, so no credentials reach Redis; two sites on one Redis (staging and live) never share answers. */
export function siteIdOf(contentSource: string): string {
  return createHash("sha256").update(contentSource).digest("base64url").slice(0, 16);
}

const optionsFor = (deadlineMs: number): RedisOptions => ({
  commandTimeout: Math.max(COMMAND_TIMEOUT_MS, 2 * deadlineMs),
  connectTimeout: 1000,
  // Commands fail at once while disconnected, and are never replayed later: a caller has long gone on without them.
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  retryStrategy: (times) => Math.min(times * 100, RECONNECT_MAX_MS),
});

const LATE = Symbol("late");

/** Resolves LATE once `ms` passed and the replies that arrived meanwhile were read: after a busy stretch the timer's
 * turn comes first, and judging at once would blame Redis for this process's own delay. */
function lateAfter(ms: number, started: (timer: NodeJS.Timeout) => void): Promise<typeof LATE> {
  return new Promise((resolve) => started(setTimeout(() => setImmediate(() => resolve(LATE)), ms)));
}

/** `deadlineMs` (REDIS_DEADLINE_MS): how long a call waits for Redis before it goes on without it. */
export function connectSharedTier(url: string, siteId: string, logger: Logger, deadlineMs: number): SharedTier {
  const redis = new Redis(url, optionsFor(deadlineMs));
  const subscribers: Redis[] = [];
  const resumeListeners: (() => void)[] = [];
  let state: SharedTierState = "connecting";
  let everConnected = false;
  let firstOutcome: () => void = () => {};
  const first = new Promise<void>((resolve) => {
    firstOutcome = resolve;
  });

  const markAvailable = () => {
    if (state === "connected") return;
    const resumed = everConnected;
    state = "connected";
    everConnected = true;
    firstOutcome();
    if (resumed) {
      logger.info("Redis answers again: sharing with other instances resumed");
      for (const listener of resumeListeners) listener();
    } else {
      logger.info("connected to Redis: caches and limits are shared with other instances");
    }
  };
  let closing = false;
  const markUnavailable = (err: unknown) => {
    firstOutcome();
    if (state === "unavailable" || closing) return;
    state = "unavailable";
    logger.warn(
      { err: err instanceof Error ? err.message : String(err) },
      "Redis unavailable: this instance serves from its own caches and limits until it answers again",
    );
  };
  const probe = () => {
    if (state === "connected" || redis.status !== "ready") return;
    redis.ping().then(markAvailable, () => {});
  };

  // ioredis reports each failed reconnection as an error event: the state above says it once.
  redis.on("error", markUnavailable);
  redis.on("close", () => {
    if (state === "connected") markUnavailable(new Error("connection closed"));
  });
  redis.on("ready", probe);
  const prober = setInterval(probe, PROBE_EVERY_MS).unref();
  const malformedSeen = new Set<string>();

  return {
    redis,
    key: (...parts) => `${KEY_PREFIX}${siteId}:${parts.join(":")}`,
    async run(op, fallback) {
      if (state !== "connected") return fallback;
      let timer: NodeJS.Timeout | undefined;
      const pending = op(redis);
      try {
        const result = await Promise.race([pending, lateAfter(deadlineMs, (t) => (timer = t))]);
        if (result !== LATE) return result;
        markUnavailable(new Error(`no answer within ${deadlineMs} ms`));
      } catch (err) {
        markUnavailable(err);
      } finally {
        clearTimeout(timer);
      }
      // Whatever it comes to later, nobody waits for it any more.
      pending.catch(() => {});
      return fallback;
    },
    state: () => state,
    connected: () => first,
    onResume(listener) {
      resumeListeners.push(listener);
    },
    openSubscriber() {
      // Subscribing waits for a connection instead of failing, and is made again after each reconnection.
      // Without maxRetriesPerRequest: null a SUBSCRIBE queued while Redis is away fails, unhandled, and stops the process.
      const subscriber = redis.duplicate({
        enableOfflineQueue: true,
        commandTimeout: undefined,
        autoResubscribe: true,
        maxRetriesPerRequest: null,
      });
      subscriber.on("error", () => {});
      subscribers.push(subscriber);
      return subscriber;
    },
    malformed(what, detail) {
      if (malformedSeen.has(what)) return;
      malformedSeen.add(what);
      logger.warn(detail, `${what} read from Redis is not as this server writes it: ignored (further ones are not logged)`);
    },
    close() {
      closing = true;
      clearInterval(prober);
      for (const connection of [redis, ...subscribers]) connection.disconnect();
    },
  };
}
