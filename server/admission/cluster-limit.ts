// A per-client limit that a cluster's workers count together in the primary, over the cluster's IPC
// channel: without Redis, WEB_CONCURRENCY workers allow one instance's allowance, not one each
// (docs/behaviour.md#enquiries, "Spam"). A worker whose primary does not answer counts alone.
import cluster, { type Worker } from "node:cluster";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import type { Logger } from "../logger.ts";
import type { Admission } from "./miss-budget.ts";
import { type ClientLimit, type LimitSpec, localLimit } from "./shared-limit.ts";

const ASK = "portal:limit";
const ANSWER = "portal:limit-answer";
/** The primary answers within a millisecond when it is there at all. */
const ANSWER_MS = 1000;
/** Limits are named in code, a handful; more is a worker gone wrong. */
const MAX_LIMITS = 16;

interface LimitAsk extends LimitSpec {
  type: typeof ASK;
  id: number;
  client: string;
}

interface LimitAnswer {
  type: typeof ANSWER;
  id: number;
  admission: Admission;
}

const whole = (value: unknown, max: number): value is number =>
  Number.isSafeInteger(value) && (value as number) > 0 && (value as number) <= max;
const text = (value: unknown, max: number): value is string => typeof value === "string" && value.length > 0 && value.length <= max;

export function isLimitAsk(message: unknown): message is LimitAsk {
  if (typeof message !== "object" || message === null) return false;
  const ask = message as Partial<Record<keyof LimitAsk, unknown>>;
  return (
    ask.type === ASK &&
    whole(ask.id, Number.MAX_SAFE_INTEGER) &&
    text(ask.name, 64) &&
    text(ask.client, 128) &&
    whole(ask.points, 1_000_000) &&
    whole(ask.durationS, 86_400 * 31)
  );
}

function isLimitAnswer(message: unknown): message is LimitAnswer {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === ANSWER;
}

/** The primary's counts: answers each worker's asks. */
export function keepClusterLimits(): (worker: Worker, ask: LimitAsk) => void {
  const limits = new Map<string, RateLimiterMemory>();
  return (worker, ask) => {
    const spec = `${ask.name}:${ask.points}:${ask.durationS}`;
    let limit = limits.get(spec);
    if (!limit && limits.size < MAX_LIMITS) {
      limit = new RateLimiterMemory({ points: ask.points, duration: ask.durationS });
      limits.set(spec, limit);
    }
    const answer = (admission: Admission) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: ask.id, admission } satisfies LimitAnswer);
    };
    if (!limit) return;
    limit.consume(ask.client).then(
      () => answer({ ok: true }),
      (refusal: unknown) => {
        if (refusal instanceof RateLimiterRes) answer({ ok: false, retryAfterS: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) });
      },
    );
  };
}

let asked = 0;
const waiting = new Map<number, (admission: Admission | undefined) => void>();
let listening = false;

function askPrimary(ask: LimitAsk): Promise<Admission | undefined> {
  if (!listening) {
    listening = true;
    process.on("message", (message: unknown) => {
      if (isLimitAnswer(message)) waiting.get(message.id)?.(message.admission);
    });
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => settle(undefined), ANSWER_MS);
    const settle = (admission: Admission | undefined) => {
      clearTimeout(timer);
      waiting.delete(ask.id);
      resolve(admission);
    };
    waiting.set(ask.id, settle);
    process.send?.(ask, undefined, undefined, (error: Error | null) => {
      if (error) settle(undefined);
    });
  });
}

/** This instance's own limit: the cluster's, counted by the primary, in a worker; else this process's. */
export function instanceLimit(spec: LimitSpec, logger: Logger): ClientLimit {
  const own = localLimit(spec);
  if (!cluster.isWorker) return own;
  let alone = false;
  return async (client) => {
    const admission = process.connected ? await askPrimary({ type: ASK, id: ++asked, client, ...spec }) : undefined;
    if (admission) {
      alone = false;
      return admission;
    }
    if (!alone)
      logger.warn({ limit: spec.name }, "the cluster's primary did not answer for a client limit: this worker counts alone until it does");
    alone = true;
    return own(client);
  };
}
