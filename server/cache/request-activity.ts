// Whether the server is busy, so work that can wait (idle-recompressor.ts) runs only when it is not.
import type { ServerResponse } from "node:http";

interface RequestActivity {
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
