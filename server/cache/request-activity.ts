/**
 * Whether the server is busy: the requests being answered now, and when one last began or
 * ended. Work that can wait (idle-recompressor.ts) runs only when neither says busy.
 */
import type { ServerResponse } from "node:http";

interface RequestActivity {
  /** Counts `res` as in flight until it is finished or closed. */
  begin(res: ServerResponse): void;
  inFlight(): number;
  lastMs(): number;
}

export function trackActivity(now: () => number = Date.now): RequestActivity {
  let inFlight = 0;
  let last = now();
  return {
    begin(res) {
      inFlight++;
      last = now();
      res.once("close", () => {
        inFlight--;
        last = now();
      });
    },
    inFlight: () => inFlight,
    lastMs: () => last,
  };
}
