/**
 * When the next scheduled item is due, says so (docs/behaviour.md#drafts-and-schedules): one query for the
 * earliest `publishAt` to come, at start and after each import, and one timer for it; nothing per request.
 */

/** Node's timers hold at most 2^31-1 ms; a later time is waited for in steps. */
const LONGEST_WAIT_MS = 2 ** 31 - 1;
/** A database that did not answer is asked again after this. */
const RETRY_MS = 5000;

export interface PublishTimer {
  /** Reads the next time again: after an import. */
  reread(): void;
  close(): void;
}

export function startPublishTimer(nextAt: (nowMs: number) => Promise<number | undefined>, onDue: () => void, now = Date.now): PublishTimer {
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  // Each read has a number, so one that answers after a newer one began is dropped.
  let reads = 0;
  const wait = (ms: number, then: () => void) => {
    clearTimeout(timer);
    timer = setTimeout(then, Math.min(ms, LONGEST_WAIT_MS));
    timer.unref();
  };
  function reread(): void {
    const read = ++reads;
    nextAt(now()).then(
      (next) => {
        if (closed || read !== reads) return;
        clearTimeout(timer);
        if (next === undefined) return;
        wait(next - now(), () => {
          // A timer may fire a little before the wall clock reaches its time: then it only waits the rest.
          if (now() >= next) onDue();
          reread();
        });
      },
      () => {
        if (!closed && read === reads) wait(RETRY_MS, reread);
      },
    );
  }
  reread();
  return {
    reread,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
