/**
 * At most `slots` resizes at once, the others waiting in a line per client, served in turn,
 * so one client's flood delays no one else's page by more than a resize per turn (docs/behaviour.md#images).
 */
import { HttpError } from "../http/errors.ts";

interface ResizeQueueOptions {
  slots: number;
  maxWaitingPerClient: number;
  /** All clients together. */
  maxWaiting: number;
  /** Of the sources waiting, each held in memory until its turn; unbounded when absent. */
  maxWaitingBytes?: number;
}

interface ResizeTask {
  /** Whose line it waits in. */
  client?: string;
  /** The source's size, held while it waits. */
  bytes?: number;
}

interface Waiter {
  start: () => void;
  bytes: number;
}

export class ResizeQueue {
  private running = 0;
  /** A Map keeps insertion order: its first client is the next served. */
  private readonly lines = new Map<string, Waiter[]>();
  private waitingCount = 0;
  private waitingBytes = 0;
  private readonly options: ResizeQueueOptions;
  started = 0;

  get busy(): number {
    return this.running + this.waitingCount;
  }

  constructor(options: ResizeQueueOptions) {
    this.options = options;
  }

  async run<T>(task: () => Promise<T>, { client = "", bytes = 0 }: ResizeTask = {}): Promise<T> {
    if (this.running >= this.options.slots) {
      const line = this.lines.get(client) ?? [];
      if (line.length >= this.options.maxWaitingPerClient) {
        throw new HttpError(429, "too many of your images are waiting to be resized; try again shortly", { "Retry-After": "1" });
      }
      if (this.waitingCount >= this.options.maxWaiting || this.waitingBytes + bytes > (this.options.maxWaitingBytes ?? Infinity)) {
        throw new HttpError(503, "too many images are being resized; try again shortly", { "Retry-After": "1" });
      }
      await new Promise<void>((start) => {
        line.push({ start, bytes });
        this.lines.set(client, line);
        this.waitingCount++;
        this.waitingBytes += bytes;
      });
    } else {
      this.running++;
    }
    this.started++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next client in turn, or is given back.
      const next = this.next();
      if (next) next();
      else this.running--;
    }
  }

  /** The client whose turn it is goes to the back if it has more waiting. */
  private next(): (() => void) | undefined {
    const first = this.lines.entries().next();
    if (first.done) return undefined;
    const [client, line] = first.value;
    const waiter = line.shift() as Waiter;
    this.lines.delete(client);
    if (line.length > 0) this.lines.set(client, line);
    this.waitingCount--;
    this.waitingBytes -= waiter.bytes;
    return waiter.start;
  }
}
