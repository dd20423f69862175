/** Each tag's keys among a cache's entries, so a purge by tag finds them without a scan. */
export class TagIndex {
  private readonly keysByTag = new Map<string, Set<string>>();

  add(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.keysByTag.get(tag);
      if (keys) keys.add(key);
      else this.keysByTag.set(tag, new Set([key]));
    }
  }

  remove(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByTag.delete(tag);
    }
  }

  keysOf(tag: string): string[] {
    return [...(this.keysByTag.get(tag) ?? [])];
  }
}
