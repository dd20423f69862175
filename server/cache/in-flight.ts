// Work under way by key: concurrent callers share one promise (the cache's loads, page renders, reader updates).
export class InFlight<T> {
  private readonly pending = new Map<string, Promise<T>>();
  /** Callers that joined work under way instead of starting their own. */
  joined = 0;

  get(key: string): Promise<T> | undefined {
    return this.pending.get(key);
  }

  has(key: string): boolean {
    return this.pending.has(key);
  }

  get size(): number {
    return this.pending.size;
  }

  values(): IterableIterator<Promise<T>> {
    return this.pending.values();
  }

  share(key: string, work: () => Promise<T>): Promise<T> {
    const underWay = this.pending.get(key);
    if (!underWay) return this.start(key, work);
    this.joined++;
    return underWay;
  }

  start(key: string, work: () => Promise<T>): Promise<T> {
    const run: Promise<T> = work().finally(() => {
      if (this.pending.get(key) === run) this.pending.delete(key);
    });
    this.pending.set(key, run);
    return run;
  }

  /** Stops sharing `key`'s work: it runs on, and the callers that follow start their own. */
  letGo(key: string): Promise<T> | undefined {
    const run = this.pending.get(key);
    this.pending.delete(key);
    return run;
  }
}
