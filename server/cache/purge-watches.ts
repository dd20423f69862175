import type { PurgeSelector, PurgeWatch } from "./swr-types.ts";

/** Past this many purged tags, a watched piece of work counts as purged outright, so the set stays small. */
const MAX_WATCHED_TAGS = 256;

/** The work under way that may end in a store (a load, a render), told of every purge so an outdated result is not kept. */
export class PurgeWatches {
  private readonly watches = new Set<PurgeWatch>();

  watch(key: string, tags: readonly string[]): PurgeWatch {
    const watch: PurgeWatch = { key, tags, purged: false, purgedTags: new Set() };
    this.watches.add(watch);
    return watch;
  }

  unwatch(watch: PurgeWatch): void {
    this.watches.delete(watch);
  }

  /** Marks what the purge made out of date; returns the keys of the work now purged outright. */
  purged(selector: PurgeSelector): string[] {
    const outright: string[] = [];
    for (const watch of this.watches) {
      if (watch.purged) continue;
      if ("all" in selector || ("keys" in selector ? selector.keys(watch.key) : watch.tags.includes(selector.tag))) {
        watch.purged = true;
        outright.push(watch.key);
      } else if ("tag" in selector) {
        if (watch.purgedTags.size >= MAX_WATCHED_TAGS) watch.purged = true;
        else watch.purgedTags.add(selector.tag);
      }
    }
    return outright;
  }
}
