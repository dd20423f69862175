/**
 * Refusals at the pace the client was asked to keep (docs/behaviour.md#miss-budget). A
 * client the miss budget refuses is told when to come back (Retry-After). One that asks
 * again before then (a crawler on several connections that ignores the header) is refused
 * again, but only after the wait that refusal names, counted from its own arrival: its
 * refusals then arrive at the pace it was asked to keep instead of as fast as the server
 * can write them, and on a busy core every one of those is paid for by the visitors
 * reading cached pages. Counted from each request's arrival, not up to the time the
 * client was first told, so that held answers leave as spread out as they came: all
 * released at one instant, they would be written in one burst, in the way of the very
 * visitors the hold is for. A client that waits as told never waits here; nothing held is
 * ever admitted late.
 *
 * A client asking again before its time is known to be refused without asking the
 * budget (its bucket cannot hold a whole request before then): `refuseEarly` lets the
 * hot paths answer it before Express runs, for about what a cache hit costs instead
 * of six times that, which under a flood is what the visitors of cached pages pay.
 *
 * Bounded: a client is remembered in a bounded LRU, a hold lasts at most `maxHoldMs`, and
 * at most `maxHeld` answers are held at once (past that, refusals are written at once, as
 * without the hold), so a flood of connections costs no more than before.
 */
import { growingLru } from "../cache/growing-lru.ts";
import { clientKeyOf } from "./client-key.ts";
import type { Admission, MissGate } from "./miss-budget.ts";

export interface RefusalHoldOptions {
  now?: () => number;
  /** Resolves after `ms`; a test hands in its own to decide when a hold ends. */
  wait?: (ms: number) => Promise<void>;
  maxHeld?: number;
  maxHoldMs?: number;
  maxClients?: number;
  /** Counts a refusal `refuseEarly` decided, which the budget never saw (the metrics read the budget's count). */
  countRefusal?: () => void;
}

/** The miss gate, and the refusal of a client that asks again before its Retry-After, decided without the budget. */
export interface HoldingGate extends MissGate {
  /**
   * For a client told to come back later than now: its refusal, resolving with the
   * Retry-After seconds once held as `take` would hold it. Undefined for any other client.
   */
  refuseEarly(address: string | undefined): Promise<number> | undefined;
}

/** Longest a refusal is held: within the shutdown grace, however low the budget. */
const MAX_HOLD_MS = 5000;
/**
 * Answers held at once, all clients together: enough for crawlers on a few connections
 * each. A flood on hundreds of connections gets the rest of its refusals at once, as
 * without the hold: each held request keeps its socket and objects alive for up to a
 * second, and with 256 held the readers of cached pages beside the reliability run's miss
 * flood had a p99 of 3.2x that beside a polite client in one CI run (the limit is 2x).
 */
const MAX_HELD = 32;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function holdingRefusals(gate: MissGate, options: RefusalHoldOptions = {}): HoldingGate {
  const now = options.now ?? Date.now;
  const wait = options.wait ?? sleep;
  const maxHeld = options.maxHeld ?? MAX_HELD;
  const maxHoldMs = options.maxHoldMs ?? MAX_HOLD_MS;
  /** When each recently refused client was told to come back. */
  const comeBackAt = growingLru<string, number>(options.maxClients ?? 10_000);
  let held = 0;

  const refuse = async (address: string | undefined, refusal: Admission & { ok: false }): Promise<Admission> => {
    const client = clientKeyOf(address);
    const at = now();
    const told = comeBackAt.get(client);
    comeBackAt.set(client, Math.max(told ?? 0, at + refusal.retryAfterS * 1000));
    if (told === undefined || told <= at) return refusal;
    await hold(refusal.retryAfterS);
    return refusal;
  };
  /** Waits the `retryAfterS` the client was told, unless `maxHeld` answers are held already. */
  const hold = async (retryAfterS: number) => {
    if (held >= maxHeld) return;
    held++;
    try {
      await wait(Math.min(retryAfterS * 1000, maxHoldMs));
    } finally {
      held--;
    }
  };

  return {
    async take(address) {
      const admission = await gate.take(address);
      return admission.ok ? admission : refuse(address, admission);
    },
    refuseEarly(address) {
      const at = now();
      const told = comeBackAt.get(clientKeyOf(address));
      if (told === undefined || told <= at) return undefined;
      options.countRefusal?.();
      const retryAfterS = Math.max(1, Math.ceil((told - at) / 1000));
      return hold(retryAfterS).then(() => retryAfterS);
    },
  };
}
