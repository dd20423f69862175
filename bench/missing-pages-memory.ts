/**
 * The missing-pages log's memory at its bound: the heap it holds once 100,000 distinct paths have filled it, for
 * paths of a usual length and of the longest kept. `node --expose-gc --import tsx bench/missing-pages-memory.ts`;
 * docs/behaviour.md#missing-pages quotes it.
 */
import { HeavyHitters } from "../server/operations/heavy-hitters.ts";
import { MISSING_PAGES_CAPACITY } from "../server/operations/missing-pages.ts";
import { mergeSightings, type Sighting } from "../server/operations/missing-pages-store.ts";
import { MAX_PATH_CHARS } from "../server/operations/missing-path.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");
const collect = gc;

/** The longest origin kept: scheme, a 239-character host and a port. */
const longestOrigin = (i: number) => `https://${String(i).padStart(6, "0")}${"r".repeat(233)}.com:8443`;
const usualOrigin = (i: number) => `https://referrer-${i % 500}.example.com`;

function heapAfterFilling(
  pathOf: (i: number) => string,
  referrerOf: (i: number) => string,
): { entries: number; waiting: number; bytes: number } {
  collect();
  const before = process.memoryUsage().heapUsed;
  const sketch = new HeavyHitters<Sighting>(MISSING_PAGES_CAPACITY, mergeSightings);
  for (let i = 0; i < 100_000; i++) {
    const at = Date.now();
    sketch.add(pathOf(i), { firstSeen: at, lastSeen: at, referrer: referrerOf(i) });
  }
  collect();
  const bytes = process.memoryUsage().heapUsed - before;
  // Kept alive until measured.
  return { entries: sketch.size, waiting: sketch.waiting, bytes };
}

const usualPath = (i: number) => `/index.php/news/show/${i}.html?x`.slice(0, 40);
const longestPath = (i: number) => `/${String(i).padStart(8, "0")}`.padEnd(MAX_PATH_CHARS, "x");
const rows: [string, (i: number) => string, (i: number) => string][] = [
  ["usual paths (about 40 characters) and referrers", usualPath, usualOrigin],
  [`longest paths (${MAX_PATH_CHARS} characters), usual referrers`, longestPath, usualOrigin],
  [`longest paths and referrers (${longestOrigin(0).length} characters)`, longestPath, longestOrigin],
];
for (const [name, pathOf, referrerOf] of rows) {
  const { entries, waiting, bytes } = heapAfterFilling(pathOf, referrerOf);
  console.log(
    `${name}: ${entries} entries and ${waiting} at the door, heap ${(bytes / 1024).toFixed(0)} KiB (${Math.round(bytes / entries)} B an entry)`,
  );
}
