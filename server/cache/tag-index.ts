/**
 * Each tag's keys among a cache's entries, so a purge by tag finds them without a scan. Most tags name one item and
 * so one key: that key is held as it is, and a Set (some 300 bytes of heap) only once a second key shares the tag.
 */
export class TagIndex {
  private readonly keysByTag = new Map<string, string | Set<string>>();

  add(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.keysByTag.get(tag);
      if (keys === undefined) this.keysByTag.set(tag, key);
      else if (typeof keys !== "string") keys.add(key);
      else if (keys !== key) this.keysByTag.set(tag, new Set([keys, key]));
    }
  }

  remove(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.keysByTag.get(tag);
      if (keys === key) this.keysByTag.delete(tag);
      else if (typeof keys === "object") {
        keys.delete(key);
        if (keys.size === 1) this.keysByTag.set(tag, keys.values().next().value as string);
      }
    }
  }

  keysOf(tag: string): string[] {
    const keys = this.keysByTag.get(tag);
    if (keys === undefined) return [];
    return typeof keys === "string" ? [keys] : [...keys];
  }
}
