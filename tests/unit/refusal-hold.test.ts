/**
 * Refusals held for the wait the client was told: a client that ignores Retry-After gets
 * its next refusal only after it, counted from that request; one that waits as told, and
 * every other client, never waits; the number held at once is bounded. A real miss budget
 * with a clock the test moves, and holds that end when the test says.
 */
import { describe, expect, it } from "vitest";
import { type Admission, MissBudget } from "../../server/admission/miss-budget.ts";
import { holdingRefusals } from "../../server/admission/refusal-hold.ts";

const CRAWLER = "203.0.113.7";
const VISITOR = "198.51.100.20";

function gateWithHolds(options: { maxHeld?: number } = {}) {
  const clock = { now: 1_000_000 };
  const holds: { ms: number; end: () => void }[] = [];
  // 60 a minute: a burst of 6, then one a second.
  const budget = new MissBudget({ ratePerMin: 60, now: () => clock.now });
  const gate = holdingRefusals(budget, {
    now: () => clock.now,
    wait: (ms) => new Promise<void>((end) => holds.push({ ms, end })),
    countRefusal: () => budget.countRefusal(),
    ...options,
  });
  return { clock, holds, gate, budget };
}

/** The admission if it came without waiting on a hold, else "held". */
async function answerNow<T = Admission>(answer: Promise<T> | T): Promise<T | "held"> {
  const held = Symbol("held");
  // The gate settles within microtasks unless it waits on a hold; a macrotask later it has had every chance.
  const result = await Promise.race([answer, new Promise<symbol>((resolve) => setImmediate(() => resolve(held)))]);
  return result === held ? "held" : (result as T);
}

describe("refusals of the miss budget", () => {
  it("hold a client that asks again before its Retry-After until then, and refuse it then", async () => {
    const { holds, gate } = gateWithHolds();
    for (let i = 0; i < 6; i++) expect(await gate.take(CRAWLER)).toEqual({ ok: true });
    // The first refusal is written at once, with the time to come back.
    expect(await gate.take(CRAWLER)).toEqual({ ok: false, retryAfterS: 1 });
    // Asked again at once: held for the second it was told to wait.
    const second = gate.take(CRAWLER);
    expect(await answerNow(second)).toBe("held");
    expect(holds.map((h) => h.ms)).toEqual([1000]);
    holds[0]?.end();
    expect(await second).toEqual({ ok: false, retryAfterS: 1 });
  });

  it("count each hold from its own request, so held answers leave as spread out as they came", async () => {
    const { clock, holds, gate } = gateWithHolds();
    for (let i = 0; i < 6; i++) await gate.take(CRAWLER);
    expect(await gate.take(CRAWLER)).toEqual({ ok: false, retryAfterS: 1 });
    const first = gate.take(CRAWLER);
    clock.now += 400;
    const second = gate.take(CRAWLER);
    for (const answer of [first, second]) expect(await answerNow(answer)).toBe("held");
    // Both wait the second they are told, each from when it came: 400 ms apart, not together.
    expect(holds.map((h) => h.ms)).toEqual([1000, 1000]);
    for (const hold of holds) hold.end();
    for (const answer of [first, second]) expect(await answer).toEqual({ ok: false, retryAfterS: 1 });
  });

  it("never hold a client that waited as told, nor any other client", async () => {
    const { clock, holds, gate } = gateWithHolds();
    for (let i = 0; i < 6; i++) await gate.take(CRAWLER);
    expect(await gate.take(CRAWLER)).toMatchObject({ ok: false });
    // Another client is answered at once.
    expect(await answerNow(gate.take(VISITOR))).toEqual({ ok: true });
    // The crawler came back when told: admitted, then refused at once again (it did wait).
    clock.now += 1000;
    expect(await answerNow(gate.take(CRAWLER))).toEqual({ ok: true });
    expect(await answerNow(gate.take(CRAWLER))).toEqual({ ok: false, retryAfterS: 1 });
    expect(holds).toEqual([]);
  });

  it("hold at most so many answers at once: past that, refusals are written at once", async () => {
    const { holds, gate, budget } = gateWithHolds({ maxHeld: 2 });
    for (let i = 0; i < 6; i++) await gate.take(CRAWLER);
    await gate.take(CRAWLER);
    const held = [gate.take(CRAWLER), gate.take(CRAWLER)];
    for (const answer of held) expect(await answerNow(answer)).toBe("held");
    expect(await answerNow(gate.take(CRAWLER))).toEqual({ ok: false, retryAfterS: 1 });
    for (const hold of holds) hold.end();
    for (const answer of held) expect(await answer).toMatchObject({ ok: false });
    // Every refusal is counted once, held or not.
    expect(budget.refused).toBe(4);
    // A hold ended: there is room again.
    expect(await answerNow(gate.take(CRAWLER))).toBe("held");
  });

  it("refuse early, without the budget, exactly the clients that ask again before their time, held and counted the same", async () => {
    const { clock, holds, gate, budget } = gateWithHolds();
    expect(gate.refuseEarly(CRAWLER)).toBeUndefined();
    for (let i = 0; i < 6; i++) await gate.take(CRAWLER);
    // Spent but not yet refused: nothing is known before the budget says so.
    expect(gate.refuseEarly(CRAWLER)).toBeUndefined();
    expect(await gate.take(CRAWLER)).toEqual({ ok: false, retryAfterS: 1 });

    const early = gate.refuseEarly(CRAWLER);
    expect(early).toBeDefined();
    expect(await answerNow(early as Promise<number>)).toBe("held");
    expect(holds.map((h) => h.ms)).toEqual([1000]);
    holds[0]?.end();
    expect(await early).toBe(1);
    expect(budget.refused).toBe(2);
    // Another client, and the crawler once its time has come, go to the budget.
    expect(gate.refuseEarly(VISITOR)).toBeUndefined();
    clock.now += 1000;
    expect(gate.refuseEarly(CRAWLER)).toBeUndefined();
    expect(await gate.take(CRAWLER)).toEqual({ ok: true });
  });
});
