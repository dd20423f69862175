// Refuses a client asking for a miss again before its Retry-After, after the wait that refusal named and
// without the budget, so the fast paths can answer it (docs/behaviour.md#miss-budget).
import { growingLru } from "../cache/growing-lru.ts";
import { clientKeyOf } from "./client-key.ts";
import type { Admission, MissGate } from "./miss-budget.ts";

interface RefusalHoldOptions {
  now?: () => number;
  wait?: (ms: number) => Promise<void>;
  maxHeld?: number;
  maxHoldMs?: number;
  maxClients?: number;
  /** Counts a refusal `refuseEarly` decided, which the budget never saw (the metrics read the budget's count). */
  countRefusal?: () => void;
}

export interface HoldingGate extends MissGate {
  /** For a client told to come back later than now: its refusal's Retry-After seconds, once held. */
  refuseEarly(address: string | undefined): Promise<number> | undefined;
}

/** Longest a refusal is held: within the shutdown grace, however low the budget. */
const MAX_HOLD_MS = 5000;
/** Past this many held at once, refusals go out at once (docs/behaviour.md#miss-budget). */
const MAX_HELD = 32;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function holdingRefusals(gate: MissGate, options: RefusalHoldOptions = {}): HoldingGate {
  const now = options.now ?? Date.now;
  const wait = options.wait ?? sleep;
  const maxHeld = options.maxHeld ?? MAX_HELD;
  const maxHoldMs = options.maxHoldMs ?? MAX_HOLD_MS;
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
