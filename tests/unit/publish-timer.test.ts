/**
 * The timer for the next scheduled item (docs/behaviour.md#drafts-and-schedules), on Vitest's clock: it says an
 * item is due once its time has come, waits in steps beyond what one Node timer holds, asks a database that
 * failed again, and keeps only the newest read's answer.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startPublishTimer } from "../../server/content/publish-timer.ts";

const DAY = 86_400_000;

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse("2026-03-01T00:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the publish timer", () => {
  it("says an item is due when its time comes, then waits for the next one", async () => {
    const start = Date.now();
    const schedule = [start + 10_000, start + 20_000];
    const due: number[] = [];
    const timer = startPublishTimer(
      async (nowMs) => schedule.find((at) => at > nowMs),
      () => due.push(Date.now()),
    );
    await vi.advanceTimersByTimeAsync(9_999);
    expect(due).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(due).toEqual([start + 10_000]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(due).toEqual([start + 10_000, start + 20_000]);
    await vi.advanceTimersByTimeAsync(DAY);
    expect(due).toHaveLength(2);
    timer.close();
  });

  it("waits for a time a month away in steps a Node timer holds, and is not early", async () => {
    const at = Date.now() + 30 * DAY;
    let due = 0;
    let reads = 0;
    const timer = startPublishTimer(
      async (nowMs) => {
        reads++;
        return at > nowMs ? at : undefined;
      },
      () => due++,
    );
    await vi.advanceTimersByTimeAsync(2 ** 31 - 1);
    expect({ due, reads }).toEqual({ due: 0, reads: 2 });
    await vi.advanceTimersByTimeAsync(at - Date.now());
    expect(due).toBe(1);
    timer.close();
  });

  it("asks a database that did not answer again, and after an import reads the new next time", async () => {
    const start = Date.now();
    let failing = true;
    let next = start + 60_000;
    let due = 0;
    let reads = 0;
    const timer = startPublishTimer(
      async (nowMs) => {
        reads++;
        if (failing) throw new Error("database down");
        return next > nowMs ? next : undefined;
      },
      () => due++,
    );
    failing = false;
    await vi.advanceTimersByTimeAsync(4_999);
    expect(reads).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(reads).toBe(2);
    // An import brought an earlier item: the timer follows it.
    next = start + 7_000;
    timer.reread();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(due).toBe(1);
    await vi.advanceTimersByTimeAsync(DAY);
    expect(due).toBe(1);
    timer.close();
  });

  it("stops when closed", async () => {
    let due = 0;
    const timer = startPublishTimer(
      async () => Date.now() + 1_000,
      () => due++,
    );
    await vi.advanceTimersByTimeAsync(0);
    timer.close();
    await vi.advanceTimersByTimeAsync(DAY);
    expect(due).toBe(0);
  });
});
