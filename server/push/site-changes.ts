/** The items an import adds, changes or removes, from the site files before and after it (docs/behaviour.md#telling-search-engines). */
import type { Lang } from "../../shared/langs.ts";
import { siteLangs } from "../../shared/site-langs.ts";
import type { SiteFile } from "../content/site-file.ts";
import type { ItemRef, ItemType, ItemVersions } from "./page-addresses.ts";

export interface SiteChanges {
  /** Added or changed, in any of the site's languages. */
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
  langs: Lang[];
}

type FileItem = { id: number; type?: number; status?: string; publishAt?: string } & Record<string, unknown>;

/** A draft or an item not yet due has no public page: it is told of when it appears (the search's refresh sees it). */
const isPublic = (item: FileItem, nowMs: number) =>
  item.status !== "draft" && (item.publishAt === undefined || Date.parse(item.publishAt) <= nowMs);

/** Each item's translation into each of `langs`, as text, by id. */
function translationsOf(site: SiteFile, collection: Collection, langs: readonly Lang[]): Map<number, string>[] {
  const all = site.translations as Partial<Record<Lang, Partial<Record<Collection, { id: number }[]>>>> | undefined;
  return langs.map((lang) => new Map((all?.[lang]?.[collection] ?? []).map((fields) => [fields.id, JSON.stringify(fields)])));
}

function itemsOf(site: SiteFile, collection: Collection, langs: readonly Lang[], nowMs: number): Map<number, Seen> {
  const translated = translationsOf(site, collection, langs);
  const items = (site[collection] as FileItem[]).filter((item) => isPublic(item, nowMs));
  return new Map(
    items.map((item) => [
      item.id,
      {
        text: JSON.stringify([item, ...translated.map((inLang) => inLang.get(item.id) ?? null)]),
        jobKind: item.type,
        langs: langs.filter((_, i) => translated[i]?.has(item.id)),
      },
    ]),
  );
}

/**
 * `before` undefined: the database held no site, so every item is new. Only items visitors see at `nowMs` count,
 * and only the site's languages (`langs`, the content's own first): a translation into another has no page.
 */
export function changedItemsOf(
  before: SiteFile | undefined,
  after: SiteFile,
  nowMs = Date.now(),
  langs: readonly Lang[] = siteLangs(),
): SiteChanges {
  const changes: SiteChanges = { changed: [], gone: [] };
  const others = langs.slice(1);
  for (const [collection, type] of COLLECTIONS) {
    const old = before ? itemsOf(before, collection, others, nowMs) : new Map<number, Seen>();
    const now = itemsOf(after, collection, others, nowMs);
    for (const [id, item] of now) {
      if (old.get(id)?.text === item.text) continue;
      changes.changed.push({ type, id, langs: item.langs, ...(type === "job" ? { jobKind: item.jobKind } : {}) });
    }
    for (const id of old.keys()) if (!now.has(id)) changes.gone.push({ type, id });
  }
  return changes;
}
