/**
 * Which other languages a page's item exists in, for its hreflang set (docs/behaviour.md#which-versions-exist).
 * A detail page's item is looked up in each language's list (list-langs.ts), which every detail page of that
 * kind shares: however many items are visited, a language costs the upstream its list's pages once per TTL.
 * An item a list does not hold (one newer than the list's answer, past its bound, or a page that is one item:
 * the company introduction) is read itself in that language, as that language's page reads it.
 */
import { isEmptyPayload } from "../../shared/envelope.ts";
import { keyInLang } from "../../shared/page-data.ts";
import { isUntranslated, type Lang } from "../../shared/page-state.ts";
import type { RouteMatch } from "../../shared/routes.ts";
import type { ApiReader } from "../api-proxy/api-reader.ts";
import { jsonOf } from "../cache/response-cache.ts";
import { markOf, readListInLang } from "./list-langs.ts";

type Read = ApiReader["get"];

export interface OtherVersions {
  /** Of the languages asked about, those the item exists in. */
  langs: ReadonlySet<Lang>;
  /** How long that holds: the shortest freshness of what it was read from; 0 after a failed read. */
  freshForMs: number;
}

/** An item the upstream has in a language: there, and not marked as the stand-in in the content's own language. */
export const hasTranslation = (item: unknown) => item !== null && item !== undefined && !isEmptyPayload(item) && !isUntranslated(item);

interface Known {
  has: boolean;
  freshForMs: number;
}

/** The item read itself in `lang`; a failed read claims no version, and is kept no time. */
async function itemInLang(read: Read, key: string, lang: Lang): Promise<Known> {
  try {
    const outcome = await read(keyInLang(key, lang));
    const { status } = outcome.value;
    const envelope = jsonOf(outcome.value) as { code?: number; data?: unknown } | null;
    const has = status === 200 && envelope?.code === 0 && hasTranslation(envelope.data);
    return { has, freshForMs: outcome.freshForMs };
  } catch {
    return { has: false, freshForMs: 0 };
  }
}

/** The page's own read of its item (shared with it through the cache's one load per key): whether there is one at all. */
async function itemExists(read: Read, key: string): Promise<boolean> {
  try {
    const { value } = await read(key);
    const envelope = jsonOf(value) as { code?: number; data?: unknown } | null;
    const { status } = value;
    return status === 200 && envelope?.code === 0 && !isEmptyPayload(envelope.data);
  } catch {
    return false;
  }
}

async function detailInLang(read: Read, match: RouteMatch, key: string, lang: Lang, exists: () => Promise<boolean>): Promise<Known> {
  const detail = match.route.detail;
  if (!detail || match.id === undefined) return itemInLang(read, key, lang);
  try {
    const list = await readListInLang(read, detail.items, lang);
    const mark = markOf(list, match.id);
    if (mark !== undefined) return { has: mark, freshForMs: list.freshForMs };
  } catch {
    // The list failed: the item itself may still answer.
  }
  // An id no list holds is most often no item at all: its page is a 404, and costs no read per language.
  if (!(await exists())) return { has: false, freshForMs: Number.POSITIVE_INFINITY };
  return itemInLang(read, key, lang);
}

/**
 * `key`: the page's item (`translationKey`) in the content's own language; `ownKey`: as the page reads it;
 * `langs`: the languages to look it up in, the page's own and the content's left out.
 */
export async function otherVersionsOf(
  read: Read,
  match: RouteMatch,
  key: string,
  ownKey: string,
  langs: readonly Lang[],
): Promise<OtherVersions> {
  let exists: Promise<boolean> | undefined;
  const ownExists = () => {
    exists ??= itemExists(read, ownKey);
    return exists;
  };
  const known = await Promise.all(langs.map((lang) => detailInLang(read, match, key, lang, ownExists)));
  return {
    langs: new Set(langs.filter((_, i) => known[i]?.has)),
    freshForMs: Math.min(Number.POSITIVE_INFINITY, ...known.map((one) => one.freshForMs)),
  };
}
