// Where missing pages are counted: this instance's heavy-hitters sketch, or Redis beside it (shared-missing-pages.ts).
import { type HeavyHitter, HeavyHitters } from "./heavy-hitters.ts";

/** What is kept beside a path's count; times in epoch milliseconds. */
export interface Sighting {
  firstSeen: number;
  lastSeen: number;
  /** The origin of the last Referer seen. */
  referrer: string | null;
}

export interface MissingPagesStore {
  note(path: string, sighting: Sighting): void;
  /** The `n` most counted, most first; `shared`: all instances' counts (Redis answered), else this one's. */
  top(n: number): Promise<{ entries: HeavyHitter<Sighting>[]; shared: boolean }>;
  close(): Promise<void>;
}

/** Earliest first sighting, latest last one, and the referrer of the latest that had one. */
export function mergeSightings(previous: Sighting | undefined, added: Sighting): Sighting {
  if (!previous) return { ...added };
  const addedIsLater = added.lastSeen >= previous.lastSeen;
  return {
    firstSeen: Math.min(previous.firstSeen, added.firstSeen),
    lastSeen: Math.max(previous.lastSeen, added.lastSeen),
    referrer: addedIsLater ? (added.referrer ?? previous.referrer) : (previous.referrer ?? added.referrer),
  };
}

export interface LocalMissingPagesStore extends MissingPagesStore {
  /** How often this process saw `path`, as far as it knows (0 if it does not). */
  countOf(path: string): number;
}

export function localMissingPagesStore(capacity: number): LocalMissingPagesStore {
  const counts = new HeavyHitters<Sighting>(capacity, mergeSightings);
  return {
    note: (path, sighting) => counts.add(path, sighting),
    countOf: (path) => counts.countOf(path),
    top: async (n) => ({ entries: counts.top(n), shared: false }),
    close: async () => {},
  };
}
