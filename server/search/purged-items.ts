/**
 * What a purge asks of the search index (docs/behaviour.md#search, "Fresh and safe"): the items
 * it names (`news:12`, or the item's page or API path), and whether it names a kind or everything.
 */
import { SEARCH_TYPES, type SearchType } from "../../shared/search.ts";
import type { PurgeRequest } from "../purge/purge-request.ts";

const DETAIL_TAG = new RegExp(`^(${SEARCH_TYPES.join("|")}):([1-9]\\d{0,15})$`);
const KIND_TAG = new RegExp(`^(${SEARCH_TYPES.join("|")})(:list)?$`);
const DETAIL_PATHS: [RegExp, SearchType | ((m: RegExpExecArray) => SearchType)][] = [
  [/^\/portal(?:\/[a-z]{2}(?:-[a-z]{2})?)?\/message\/(news|notice)\/([1-9]\d{0,15})$/, (m) => m[1] as SearchType],
  [/^\/portal(?:\/[a-z]{2}(?:-[a-z]{2})?)?\/(product|service)\/([1-9]\d{0,15})$/, (m) => m[1] as SearchType],
  [/^\/portal(?:\/[a-z]{2}(?:-[a-z]{2})?)?\/job\/(?:society|school)\/([1-9]\d{0,15})$/, "job"],
  [/^\/api\/portal\/message\/(news|notice)\/([1-9]\d{0,15})$/, (m) => m[1] as SearchType],
  [/^\/api\/portal\/(?:product\/(product)|service\/(service))\/([1-9]\d{0,15})$/, (m) => (m[1] ?? m[2]) as SearchType],
  [/^\/api\/portal\/job\/job\/([1-9]\d{0,15})$/, "job"],
];

function itemOfPath(path: string): { type: SearchType; id: number } | undefined {
  const bare = path.split("?")[0] as string;
  for (const [pattern, type] of DETAIL_PATHS) {
    const m = pattern.exec(bare);
    if (m) return { type: typeof type === "string" ? type : type(m), id: Number(m[m.length - 1]) };
  }
  return undefined;
}

export interface PurgedItems {
  /** By `type:id`. */
  items: Map<string, { type: SearchType; id: number }>;
  /** A kind or everything: a build reads them again. */
  kinds: boolean;
}

export function purgedItems(request: PurgeRequest): PurgedItems {
  const items = new Map<string, { type: SearchType; id: number }>();
  let kinds = request.all;
  for (const tag of request.tags) {
    const detail = DETAIL_TAG.exec(tag);
    if (detail) items.set(tag, { type: detail[1] as SearchType, id: Number(detail[2]) });
    else if (KIND_TAG.test(tag)) kinds = true;
  }
  for (const path of request.paths) {
    const item = itemOfPath(path);
    if (item) items.set(`${item.type}:${item.id}`, item);
  }
  return { items, kinds };
}
