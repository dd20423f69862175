/**
 * Sends the queue: every instance claims what is due for each engine, one request per claim,
 * and records the answer in the database, so retries and Baidu's pause outlive a restart
 * (docs/behaviour.md#telling-search-engines, "Delivery").
 */
import type { Logger } from "../logger.ts";
import type { EngineAnswer } from "./engine-answer.ts";
import { ENGINE_TIMEOUT_MS } from "./engine-answer.ts";
import type { Claimed, PushEngine, PushStore } from "./push-store.ts";

export interface PushEvents {
  sent(engine: PushEngine, count: number): void;
  failed(engine: PushEngine, count: number): void;
  dropped(engine: PushEngine, count: number): void;
  remain(count: number): void;
}

export interface EngineLink {
  engine: PushEngine;
  /** Addresses a request may carry. */
  batch: number;
  /** `stop` aborts a request under way when the process stops. */
  send(urls: readonly string[], stop: AbortSignal): Promise<EngineAnswer>;
}

interface SenderOptions {
  store: PushStore;
  links: readonly EngineLink[];
  publicOrigin: string;
  gatherMs: number;
  logger: Logger;
  events: PushEvents;
  now?: () => number;
  backoffBaseMs?: number;
  pollMs?: number;
}

export interface PushSender {
  start(): void;
  /** Looks for addresses due now rather than at the next poll. */
  kick(): void;
  stop(): Promise<void>;
}

/** Longer than a request may take, so a claim is never taken over while its request is under way. */
const LEASE_MS = 4 * ENGINE_TIMEOUT_MS;
const POLL_MS = 1000;
const BACKOFF_BASE_MS = 5000;
const BACKOFF_MAX_MS = 3600_000;
/** An address failing this long after it was queued is given up. */
const HORIZON_MS = 24 * 3600_000;
const DAY_MS = 86_400_000;
const CHINA_OFFSET_MS = 8 * 3600_000;
export const BAIDU_PAUSE_KEY = "baidu_paused_until";
export const BAIDU_REMAIN_KEY = "baidu_remain";
/** Until when `baidu_remain` holds: the next midnight in China after Baidu gave it, when the quota renews. */
export const BAIDU_REMAIN_UNTIL_KEY = "baidu_remain_until";

/** The next midnight in China (UTC+8, no daylight saving), when Baidu's daily quota starts again. */
export function nextChinaMidnight(nowMs: number): number {
  return (Math.floor((nowMs + CHINA_OFFSET_MS) / DAY_MS) + 1) * DAY_MS - CHINA_OFFSET_MS;
}

function backoffMs(attempts: number, baseMs: number, random = Math.random): number {
  const full = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
  return Math.round(full / 2 + random() * (full / 2));
}

export function createPushSender(options: SenderOptions): PushSender {
  const { store, links, publicOrigin, gatherMs, logger, events } = options;
  const now = options.now ?? Date.now;
  const backoffBaseMs = options.backoffBaseMs ?? BACKOFF_BASE_MS;
  const pollMs = options.pollMs ?? POLL_MS;

  async function pausedUntil(engine: PushEngine): Promise<number> {
    if (engine !== "baidu") return 0;
    return Number((await store.readState(BAIDU_PAUSE_KEY)) ?? 0);
  }

  /** A batch no larger than what Baidu last said remains of today's quota: it refuses a larger one whole. */
  async function batchOf(link: EngineLink, at: number): Promise<number> {
    if (link.engine !== "baidu") return link.batch;
    const until = Number((await store.readState(BAIDU_REMAIN_UNTIL_KEY)) ?? 0);
    const remain = Number((await store.readState(BAIDU_REMAIN_KEY)) ?? Number.NaN);
    if (until <= at || !Number.isInteger(remain) || remain <= 0) return link.batch;
    return Math.min(link.batch, remain);
  }

  async function pauseBaidu(reason: string): Promise<number> {
    const until = nextChinaMidnight(now());
    await store.writeState(BAIDU_PAUSE_KEY, String(until));
    events.remain(0);
    logger.warn(
      { engine: "baidu", until: new Date(until).toISOString(), reason },
      "Baidu's daily quota is spent: nothing more is sent to it today",
    );
    return until;
  }

  async function settle(link: EngineLink, claim: Claimed, answer: EngineAnswer): Promise<void> {
    const { engine } = link;
    const n = claim.paths.length;
    if (answer.kind === "sent") {
      await store.finish(engine, claim.owner, now(), true);
      events.sent(engine, n - (answer.rejected ?? 0));
      if (answer.rejected) {
        events.dropped(engine, answer.rejected);
        logger.warn({ engine, rejected: answer.rejected }, "the search engine refused some addresses as not of this site or not valid");
      }
      if (answer.remain !== undefined) {
        events.remain(answer.remain);
        await store.writeState(BAIDU_REMAIN_KEY, String(answer.remain));
        await store.writeState(BAIDU_REMAIN_UNTIL_KEY, String(nextChinaMidnight(now())));
        if (answer.remain <= 0) await pauseBaidu("remain 0");
      }
      logger.info({ engine, addresses: n }, "told a search engine of changed pages");
      return;
    }
    if (answer.kind === "quota") {
      const until = await pauseBaidu(answer.reason);
      await store.retry(engine, claim.owner, until, false);
      return;
    }
    const at = now();
    const next = at + (answer.kind === "retry" ? Math.max(answer.afterMs ?? 0, backoffMs(claim.attempts + 1, backoffBaseMs)) : 0);
    if (answer.kind === "drop" || next - claim.queuedAt > HORIZON_MS) {
      await store.finish(engine, claim.owner, at, false);
      events.dropped(engine, n);
      logger.error(
        { engine, addresses: n, err: answer.reason },
        "addresses dropped: the search engine refused them, or kept failing for 24 hours",
      );
      return;
    }
    await store.retry(engine, claim.owner, next, true);
    events.failed(engine, n);
    logger.warn({ engine, addresses: n, retryInMs: next - at, err: answer.reason }, "telling a search engine failed: will retry");
  }

  async function passFor(link: EngineLink): Promise<void> {
    for (;;) {
      if (stopped) return;
      const at = now();
      if ((await pausedUntil(link.engine)) > at) return;
      const claim = await store.claim(link.engine, at, gatherMs, at + LEASE_MS, await batchOf(link, at));
      if (!claim) return;
      const answer = await link.send(
        claim.paths.map((path) => publicOrigin + path),
        stopping.signal,
      );
      await settle(link, claim, answer);
    }
  }

  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  // A stop does not wait out an engine's deadline: the request is retried from the database after the restart.
  const stopping = new AbortController();
  let unreachableLogged = false;

  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = Promise.all(links.map(passFor))
      .then(
        () => {
          unreachableLogged = false;
        },
        (error: unknown) => {
          if (!unreachableLogged)
            logger.warn({ err: error instanceof Error ? error.message : String(error) }, "the search engine queue cannot be read");
          unreachableLogged = true;
        },
      )
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    start() {
      if (timer || stopped || links.length === 0) return;
      timer = setInterval(run, pollMs).unref();
      run();
    },
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}
