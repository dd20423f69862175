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

function heapAfterFilling(pathOf: (i: number) => string): { entries: number; bytes: number } {
  collect();
  const before = process.memoryUsage().heapUsed;
  const sketch = new HeavyHitters<Sighting>(MISSING_PAGES_CAPACITY, mergeSightings);
  for (let i = 0; i < 100_000; i++) {
    const at = Date.now();
    sketch.add(pathOf(i), { firstSeen: at, lastSeen: at, referrer: `https://referrer-${i % 500}.example.com` });
  }
  collect();
  const bytes = process.memoryUsage().heapUsed - before;
  // Kept alive until measured.
  return { entries: sketch.size, bytes };
}

const rows = {
  "usual paths (about 40 characters)": (i: number) => `/index.php/news/show/${i}.html?x`.slice(0, 40),
  [`longest paths (${MAX_PATH_CHARS} characters)`]: (i: number) => `/${String(i).padStart(8, "0")}`.padEnd(MAX_PATH_CHARS, "x"),
};
for (const [name, pathOf] of Object.entries(rows)) {
  const { entries, bytes } = heapAfterFilling(pathOf);
  console.log(`${name}: ${entries} entries, heap ${(bytes / 1024).toFixed(0)} KiB (${Math.round(bytes / entries)} B an entry)`);
}
