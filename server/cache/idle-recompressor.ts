// Answers read again are recompressed at brotli's best quality while the server is idle, in place, so every
// cache holding them serves the smaller form (docs/behaviour.md#compression).
import zlib from "node:zlib";
import { brotliInPool, brotliOptionsOf } from "../http/content-codings.ts";
import { identityBodyOf, ownBytes, type PreparedAnswer } from "./prepared-answer.ts";

/** If one is dropped, the hottest come back soon enough. */
const MAX_WAITING = 256;
export const MIN_SAVING = 0.03;
const IDLE_AFTER_MS = 2000;

interface IdleRecompressorOptions {
  inFlight: () => number;
  lastActivityMs: () => number;
  now?: () => number;
  later?: (task: () => void, ms: number) => void;
}

export class IdleRecompressor {
  private readonly waiting = new Set<PreparedAnswer>();
  private readonly done = new WeakSet<PreparedAnswer>();
  private scheduled = false;
  private working = false;
  private lastWorkMs = Number.NEGATIVE_INFINITY;
  private readonly now: () => number;
  private readonly later: (task: () => void, ms: number) => void;
  private readonly options: IdleRecompressorOptions;
  recompressed = 0;

  constructor(options: IdleRecompressorOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.later = options.later ?? ((task, ms) => setTimeout(task, ms).unref());
  }

  noteHit(answer: PreparedAnswer): void {
    if (!answer.br || this.done.has(answer) || this.waiting.has(answer) || this.waiting.size >= MAX_WAITING) return;
    this.waiting.add(answer);
    this.schedule(IDLE_AFTER_MS);
  }

  get pending(): number {
    return this.waiting.size;
  }

  private schedule(ms: number): void {
    if (this.scheduled || this.working || this.waiting.size === 0) return;
    this.scheduled = true;
    this.later(() => {
      this.scheduled = false;
      void this.runOne();
    }, ms);
  }

  private idle(): boolean {
    const quietSince = Math.max(this.options.lastActivityMs(), this.lastWorkMs);
    return this.options.inFlight() === 0 && this.now() - quietSince >= IDLE_AFTER_MS;
  }

  private async runOne(): Promise<void> {
    if (!this.idle()) return this.schedule(IDLE_AFTER_MS);
    const [answer] = this.waiting;
    if (!answer) return;
    this.waiting.delete(answer);
    this.done.add(answer);
    this.working = true;
    try {
      const body = identityBodyOf(answer);
      const best = await brotliInPool(body, brotliOptionsOf(zlib.constants.BROTLI_MAX_QUALITY, body.length));
      const current = answer.br;
      if (current && best.length <= current.body.length * (1 - MIN_SAVING)) {
        answer.br = { body: ownBytes(best), headers: withLength(current.headers, best.length) };
        answer.bytes -= current.body.length - best.length;
        this.recompressed++;
      }
    } finally {
      this.working = false;
      this.lastWorkMs = this.now();
    }
    this.schedule(IDLE_AFTER_MS);
  }
}

function withLength(headers: string[], length: number): string[] {
  const copy = [...headers];
  for (let i = 0; i < copy.length; i += 2) if (copy[i]?.toLowerCase() === "content-length") copy[i + 1] = String(length);
  return copy;
}
