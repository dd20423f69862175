/** The items an import adds, changes or removes, from the site files before and after it (docs/behaviour.md#telling-search-engines). */
import type { SiteFile } from "../content/site-file.ts";
import type { ItemRef, ItemType, ItemVersions } from "./page-addresses.ts";

export interface SiteChanges {
  /** Added or changed, in either language. */
  changed: ItemVersions[];
  gone: ItemRef[];
}

const COLLECTIONS = [
  ["news", "news"],
  ["notices", "notice"],
  ["products", "product"],
  ["services", "service"],
  ["jobs", "job"],
] as const satisfies readonly (readonly [keyof SiteFile, ItemType])[];

type Collection = (typeof COLLECTIONS)[number][0];

interface Seen {
  text: string;
  jobKind?: number;
  english: boolean;
}

type FileItem = { id: number; type?: number; status?: string; publishAt?: string } & Record<string, unknown>;

/** A draft or an item not yet due has no public page: it is told of when it appears (the search's refresh sees it). */
const isPublic = (item: FileItem, nowMs: number) =>
  item.status !== "draft" && (item.publishAt === undefined || Date.parse(item.publishAt) <= nowMs);

function itemsOf(site: SiteFile, collection: Collection, nowMs: number): Map<number, Seen> {
  const english = new Map(
    ((site.translations?.en?.[collection] ?? []) as { id: number }[]).map((fields) => [fields.id, JSON.stringify(fields)]),
  );
  const items = (site[collection] as FileItem[]).filter((item) => isPublic(item, nowMs));
  return new Map(
    items.map((item) => [
      item.id,
      { text: JSON.stringify([item, english.get(item.id) ?? null]), jobKind: item.type, english: english.has(item.id) },
    ]),
  );
}

/** `before` undefined: the database held no site, so every item is new. Only items visitors see at `nowMs` count. */
export function changedItemsOf(before: SiteFile | undefined, after: SiteFile, nowMs = Date.now()): SiteChanges {
  const changes: SiteChanges = { changed: [], gone: [] };
  for (const [collection, type] of COLLECTIONS) {
    const old = before ? itemsOf(before, collection, nowMs) : new Map<number, Seen>();
    const now = itemsOf(after, collection, nowMs);
    for (const [id, item] of now) {
      if (old.get(id)?.text === item.text) continue;
      changes.changed.push({ type, id, english: item.english, ...(type === "job" ? { jobKind: item.jobKind } : {}) });
    }
    for (const id of old.keys()) if (!now.has(id)) changes.gone.push({ type, id });
  }
  return changes;
}
