/**
 * Items named as changed, read (a few at a time) to learn their addresses, then queued; an item
 * named again before it is read is read once (docs/behaviour.md#telling-search-engines).
 */
import type { Logger } from "../logger.ts";
import type { ItemState } from "./item-versions.ts";
import { addressesOf, addressesOfGone, type ItemRef } from "./page-addresses.ts";

/** A purge names an item; a refresh found it changed, or gone (so it is not read). */
export type NamedBy = "purge" | "refresh" | "refresh-gone";

interface ChangedItemsDeps {
  read(item: ItemRef): Promise<ItemState>;
  queue(paths: string[], gone: boolean, fromRefresh: boolean): Promise<void>;
  whenQueued(): void;
  logger: Logger;
}

export interface ChangedItems {
  name(item: ItemRef, by: NamedBy): void;
  /** Settles once the items named so far are queued. */
  settled(): Promise<void>;
  /** Items not read yet are left. */
  close(): Promise<void>;
}

/** A purge names at most a few hundred; a refresh what changed. Past it, items are logged once and left. */
const MAX_PENDING_ITEMS = 10_000;
const READS_AT_ONCE = 4;

export function createChangedItems({ read, queue, whenQueued, logger }: ChangedItemsDeps): ChangedItems {
  /** By `type:id`; `by` stays "refresh…" only if every naming was a refresh's. */
  const pending = new Map<string, { item: ItemRef; by: NamedBy }>();
  let overflowLogged = false;
  let working: Promise<void> | undefined;

  async function queueItem(item: ItemRef, by: NamedBy): Promise<void> {
    const state = by === "refresh-gone" ? ({ kind: "gone" } as const) : await read(item);
    const fromRefresh = by !== "purge";
    if (state.kind === "gone") await queue(addressesOfGone(item), true, fromRefresh);
    else await queue(addressesOf(state.versions), false, fromRefresh);
  }

  async function work(): Promise<void> {
    while (pending.size > 0) {
      const batch = [...pending.values()].slice(0, READS_AT_ONCE);
      for (const { item } of batch) pending.delete(`${item.type}:${item.id}`);
      await Promise.all(
        batch.map(({ item, by }) =>
          queueItem(item, by).catch((error: unknown) =>
            logger.warn(
              { type: item.type, id: item.id, err: error instanceof Error ? error.message : String(error) },
              "a changed item could not be queued for search engines",
            ),
          ),
        ),
      );
      if (pending.size === 0) overflowLogged = false;
    }
    whenQueued();
  }

  return {
    name(item, by) {
      const key = `${item.type}:${item.id}`;
      const before = pending.get(key);
      if (before) {
        // A purge's naming wins: it is read, and queued however lately it was sent.
        if (by === "purge") before.by = "purge";
        return;
      }
      if (pending.size >= MAX_PENDING_ITEMS) {
        if (!overflowLogged) logger.warn({ max: MAX_PENDING_ITEMS }, "too many changed items waiting to be read: some are not sent");
        overflowLogged = true;
        return;
      }
      pending.set(key, { item, by });
      working ??= work().finally(() => {
        working = undefined;
      });
    },
    async settled() {
      while (working) await working;
    },
    async close() {
      pending.clear();
      await working;
    },
  };
}
