/**
 * Which items of a list exist in a language, read from that language's answers to the list call
 * (docs/behaviour.md#which-versions-exist): each item is there translated, or marked as the stand-in
 * in the content's own language. Read through the API cache under the keys the sitemap reads, so the
 * cache's TTL, purges, de-duplication and shared tier hold for it, and what each answer says is worked
 * out once per answer, not once per page.
 */
import { type Paged, payloadOf } from "../../shared/envelope.ts";
import { apiKey, keyInLang } from "../../shared/page-data.ts";
import type { ItemList } from "../../shared/page-route.ts";
import { isUntranslated, type Lang } from "../../shared/page-state.ts";
import type { ApiReader } from "../api-proxy/api-reader.ts";
import { jsonOf } from "../cache/response-cache.ts";

type Read = ApiReader["get"];

/** Item id → true where the item is in the language, false where it is the stand-in in the content's own. */
export type LangMarks = ReadonlyMap<number, boolean>;

export interface ListInLang {
  /** One per answer read: an item is looked up in each. */
  marks: readonly LangMarks[];
  /** The shortest freshness of the answers it was read from. */
  freshForMs: number;
  /** No page failed. Either way an item missing from `marks` may still exist: one newer than the answers, or past MAX_ITEMS. */
  complete: boolean;
}

/** Per page of a paged list: the sitemap's size, so its reads and these are the same cache entries. */
export const LIST_PAGE_SIZE = 100;
/** The sitemap's bound; a list longer than that is read that far, its later items looked up one by one. */
export const MAX_ITEMS = 50_000;
const PAGES_AT_ONCE = 4;

/** By the cached answer: a hit gives the same object, so each answer is parsed and gone through once while it is cached. */
const readsByAnswer = new WeakMap<object, { marks: LangMarks; pages: number }>();

/**
 * A paged list by its first page's cached answer, until the first of its answers is no longer fresh: a page then
 * costs one cache read per language, not one per list page. A purge of the list (its tags are every page's) or a
 * refresh of its first page gives a new answer, so it is read through again; kept no longer than that answer.
 */
const listsByFirstPage = new WeakMap<object, { list: ListInLang; until: number }>();

const isId = (id: unknown): id is number => Number.isSafeInteger(id) && (id as number) > 0;

function marksOf(items: unknown): LangMarks {
  const marks = new Map<number, boolean>();
  if (!Array.isArray(items)) return marks;
  for (const item of items) {
    const id = (item as { id?: unknown } | null)?.id;
    if (isId(id)) marks.set(id, !isUntranslated(item));
  }
  return marks;
}

interface PageRead {
  marks: LangMarks;
  freshForMs: number;
  pages: number;
}

/** One answer's marks and, for a paged list, its page count; throws when the call failed or did not answer code 0. */
async function readPage(read: Read, key: string, paged: boolean): Promise<PageRead & { answer: object }> {
  const outcome = await read(key);
  const answer = outcome.value;
  let gone = readsByAnswer.get(answer);
  if (!gone) {
    const envelope = jsonOf(answer) as { code?: number; data?: unknown } | null;
    if (answer.status !== 200 || envelope?.code !== 0) throw new Error(`${key} answered ${answer.status} code ${envelope?.code}`);
    const payload = paged ? payloadOf<Paged<unknown>>(envelope, "paged") : payloadOf<unknown[]>(envelope, "list");
    const items = paged ? (payload as Paged<unknown>).pageDataList : payload;
    const pages = paged ? Math.max(0, Math.floor(Number((payload as Paged<unknown>).totalPageCount) || 0)) : 1;
    gone = { marks: marksOf(items), pages };
    readsByAnswer.set(answer, gone);
  }
  return { ...gone, freshForMs: outcome.freshForMs, answer };
}

/** Each page's key (an unpaged list's one key: page -1), made once: a list is one of the route table's, its pages and languages bounded. */
const keysOfList = new WeakMap<ItemList, Map<string, string>>();

function pageKeyOf(list: ItemList, lang: Lang, pageIndex: number): string {
  const keys = keysOfList.get(list) ?? new Map<string, string>();
  keysOfList.set(list, keys);
  const made = keys.get(`${lang} ${pageIndex}`);
  if (made !== undefined) return made;
  const query = pageIndex < 0 ? list.query : { ...list.query, pageIndex, pageMaxCount: LIST_PAGE_SIZE };
  const key = keyInLang(apiKey(list.call, { query }), lang);
  keys.set(`${lang} ${pageIndex}`, key);
  return key;
}

/** The list in `lang`; throws when its first answer fails (nothing is known then). */
export async function readListInLang(read: Read, list: ItemList, lang: Lang): Promise<ListInLang> {
  if (!list.paged) {
    const only = await readPage(read, pageKeyOf(list, lang, -1), false);
    return { marks: [only.marks], freshForMs: only.freshForMs, complete: true };
  }
  const first = await readPage(read, pageKeyOf(list, lang, 0), true);
  const known = listsByFirstPage.get(first.answer);
  const now = Date.now();
  if (known && now < known.until) return { ...known.list, freshForMs: known.until - now };
  const maxPages = Math.ceil(MAX_ITEMS / LIST_PAGE_SIZE);
  const rest = Array.from({ length: Math.max(0, Math.min(first.pages, maxPages) - 1) }, (_, i) => i + 1);
  const result = { marks: [first.marks], freshForMs: first.freshForMs, complete: true };
  for (let at = 0; at < rest.length; at += PAGES_AT_ONCE) {
    const batch = await Promise.allSettled(
      rest.slice(at, at + PAGES_AT_ONCE).map((index) => readPage(read, pageKeyOf(list, lang, index), true)),
    );
    for (const page of batch) {
      if (page.status === "rejected") {
        result.complete = false;
        result.freshForMs = 0;
        continue;
      }
      result.marks.push(page.value.marks);
      result.freshForMs = Math.min(result.freshForMs, page.value.freshForMs);
    }
  }
  if (result.complete && result.freshForMs > 0 && result.marks.length > 1) {
    // An item an answer repeats on a later page (the list changed while it was read) counts where it came first.
    const merged = { ...result, marks: [new Map([...result.marks].reverse().flatMap((marks) => [...marks]))] };
    listsByFirstPage.set(first.answer, { list: merged, until: now + result.freshForMs });
  }
  return result;
}

/** What the list says of one item: true translated, false the stand-in, undefined not in it. */
export function markOf(list: ListInLang, id: number): boolean | undefined {
  for (const marks of list.marks) {
    const mark = marks.get(id);
    if (mark !== undefined) return mark;
  }
  return undefined;
}
