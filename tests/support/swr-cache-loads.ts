/** Loads that tests can count and hold open, over a cache on a clock they move, for the SwrCache suites. */
import { type Loaded, SwrCache } from "../../server/cache/swr-cache.ts";

export const clock = { now: 0 };

export function cacheOf(options: { maxBytes?: number; staleMs?: number; oneOff?: boolean; admission?: boolean } = {}) {
  return new SwrCache<string>({
    maxBytes: options.maxBytes ?? 10_000,
    staleMs: options.staleMs ?? 500,
    sizeOf: (value, key) => value.length + key.length,
    now: () => clock.now,
    oneOff: options.oneOff ? { share: 10, holds: (value) => value.startsWith("404") } : undefined,
    admission: options.admission,
  });
}

/** A load that counts its runs and can be held open until `release`. */
export function loader(value: (run: number) => string, freshForMs = 1000) {
  let runs = 0;
  let release = () => {};
  let held = false;
  const load = async (): Promise<Loaded<string>> => {
    const run = ++runs;
    if (held) await new Promise<void>((resolve) => (release = resolve));
    return { value: value(run), freshForMs };
  };
  return {
    load,
    runs: () => runs,
    hold: () => (held = true),
    release: () => {
      held = false;
      release();
    },
  };
}

export const settle = () => new Promise((resolve) => setImmediate(resolve));
