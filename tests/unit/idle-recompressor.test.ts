/**
 * Stored answers are compressed at dynamic-content levels, and one read again is
 * recompressed with brotli 11 only while no request is in flight: what a visitor then
 * receives is smaller and decodes to the same bytes, and nothing is done while requests wait.
 */
import { readFileSync } from "node:fs";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { IdleRecompressor, MIN_SAVING } from "../../server/cache/idle-recompressor.ts";
import { compressFor, prepareAnswer } from "../../server/cache/prepared-answer.ts";
import { DEMO_SITE_FILE } from "../../server/project-root.ts";

const BODY = readFileSync(DEMO_SITE_FILE);
const lengthOf = (headers: string[]) => Number(headers[headers.findIndex((h) => h.toLowerCase() === "content-length") + 1]);

/** A recompressor whose waits run when the test says, on a clock the test moves. */
function manual(inFlight: { n: number }) {
  const tasks: (() => void)[] = [];
  let clock = 1_000_000;
  const recompressor = new IdleRecompressor({
    inFlight: () => inFlight.n,
    lastActivityMs: () => 0,
    now: () => clock,
    later: (task) => tasks.push(task),
  });
  return {
    recompressor,
    advance: (ms: number) => {
      clock += ms;
    },
    /** Runs the waits due now, and what they start, until nothing is left to run. */
    async runAll() {
      for (let i = 0; i < 20 && tasks.length > 0; i++) {
        (tasks.shift() as () => void)();
        await new Promise((resolve) => setTimeout(resolve, 0));
        while (recompressor.pending > 0 && tasks.length === 0 && inFlight.n === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}

describe("compressed answers", () => {
  it("are stored in every coding at dynamic levels, each decoding to the body", async () => {
    const answer = await prepareAnswer(200, BODY, '"v1"', [["Content-Type", "application/json"]]);
    compressFor(answer, "gzip, br");
    compressFor(answer, "gzip");
    expect(zlib.gunzipSync(answer.gzip?.body as Buffer).equals(BODY)).toBe(true);
    expect(zlib.brotliDecompressSync(answer.br?.body as Buffer).equals(BODY)).toBe(true);
    expect(lengthOf(answer.br?.headers as string[])).toBe(answer.br?.body.length);
  });

  it("are recompressed smaller once read again and the server is idle, never while requests are in flight", async () => {
    const answer = await prepareAnswer(200, BODY, '"v1"', [["Content-Type", "application/json"]]);
    compressFor(answer, "gzip, br");
    compressFor(answer, "gzip");
    const stored = answer.br?.body.length as number;
    const inFlight = { n: 1 };
    const { recompressor, advance, runAll } = manual(inFlight);
    recompressor.noteHit(answer);
    recompressor.noteHit(answer);
    expect(recompressor.pending).toBe(1);

    // Busy: its turn comes and goes, and it waits.
    advance(1000);
    await runAll();
    expect(answer.br?.body.length).toBe(stored);
    expect(recompressor.pending).toBe(1);

    inFlight.n = 0;
    advance(1000);
    await runAll();
    while (recompressor.recompressed === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const best = answer.br?.body as Buffer;
    expect(best.length).toBeLessThanOrEqual(stored * (1 - MIN_SAVING));
    expect(zlib.brotliDecompressSync(best).equals(BODY)).toBe(true);
    expect(lengthOf(answer.br?.headers as string[])).toBe(best.length);
    // Once is enough.
    recompressor.noteHit(answer);
    expect(recompressor.pending).toBe(0);
  });
});
