/**
 * At most `slots` resizes at once in this process, and a short line of `maxWaiting`
 * behind them; past that a resize is refused at once with 503 and Retry-After, so a flood
 * of new variants cannot take every core (each resize uses one libvips thread).
 */
import { HttpError } from "../http/errors.ts";

export interface ResizeQueueOptions {
  slots: number;
  maxWaiting: number;
}

export class ResizeQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly options: ResizeQueueOptions;
  /** Resizes started since the process began. */
  started = 0;

  /** Resizes running or waiting now. */
  get busy(): number {
    return this.running + this.waiting.length;
  }

  constructor(options: ResizeQueueOptions) {
    this.options = options;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.slots) {
      if (this.waiting.length >= this.options.maxWaiting) {
        throw new HttpError(503, "too many images are being resized; try again shortly", { "Retry-After": "1" });
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    this.started++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next in line, or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
