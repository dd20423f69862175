/**
 * Keeps a generated result (a sitemap, a feed, the readiness check) for a while, so
 * clients asking again and again get the same one instead of making it regenerate per
 * request; requests that arrive while it is being generated share that one generation.
 * A failed generation is not kept.
 */
export interface Generated<T> {
  body: T;
  /** How long this result may be reused; a partial result asks for less. */
  keepMs: number;
}

export class GeneratedCache<T = string> {
  private readonly entries = new Map<string, { body: T; until: number }>();
  private readonly inflight = new Map<string, Promise<T>>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  get(key: string, generate: () => Promise<Generated<T>>): Promise<T> {
    const entry = this.entries.get(key);
    if (entry && this.now() < entry.until) return Promise.resolve(entry.body);
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const started = generate()
      .then(({ body, keepMs }) => {
        if (keepMs > 0) this.entries.set(key, { body, until: this.now() + keepMs });
        else this.entries.delete(key);
        return body;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, started);
    return started;
  }
}
