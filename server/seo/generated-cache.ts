/**
 * Keeps a generated document (sitemap, feed) for a while, so crawlers asking again and
 * again get the same text instead of making it regenerate per request; requests that
 * arrive while it is being generated share that one generation. A failed generation is
 * not kept.
 */
export interface Generated {
  body: string;
  /** How long this result may be reused; a partial result asks for less. */
  keepMs: number;
}

export class GeneratedCache {
  private readonly entries = new Map<string, { body: string; until: number }>();
  private readonly inflight = new Map<string, Promise<string>>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  get(key: string, generate: () => Promise<Generated>): Promise<string> {
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
