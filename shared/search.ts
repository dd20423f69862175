/** Site search as both sides see it: the call's and the page's parameters, parsed one way (docs/behaviour.md#search). */
import { listPagingOf } from "./list-query.ts";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_INDEX, MAX_PAGE_SIZE, parseIntegerParam } from "./params.ts";
import { isSearchType, parseQ, SEARCH_PATH, SEARCH_TYPES, type SearchType } from "./search-query.ts";

export { isSearchType, MAX_QUERY_LENGTH, SEARCH_PATH, SEARCH_TYPES, type SearchType } from "./search-query.ts";

/** Private-use characters, never in content. */
export const MARK_START = "\uE000";
export const MARK_END = "\uE001";

export interface SearchHit {
  type: SearchType;
  id: number;
  title: string;
  snippet: string;
  url: string;
  dateTime?: string;
}

export interface SearchResult {
  pageDataList: SearchHit[];
  totalCount: number;
  totalPageCount: number;
  facets: Record<SearchType, number>;
}

export interface SearchQuery {
  q: string;
  type?: SearchType;
  pageIndex: number;
  pageMaxCount: number;
}

export function parseSearchCall(query: URLSearchParams): { ok: true; value: SearchQuery } | { ok: false; error: string } {
  const parsedQ = parseQ(query);
  if (!parsedQ.ok) return parsedQ;
  for (const name of ["type", "pageIndex", "pageMaxCount"]) {
    if (query.getAll(name).length > 1) return { ok: false, error: `${name} is given more than once` };
  }
  const rawType = query.get("type") ?? "";
  if (rawType !== "" && !isSearchType(rawType)) return { ok: false, error: `type must be one of ${SEARCH_TYPES.join(", ")}` };
  const pageIndex = parseIntegerParam("pageIndex", query.get("pageIndex") ?? undefined, 0, MAX_PAGE_INDEX);
  if (!pageIndex.ok) return pageIndex;
  const pageMaxCount = parseIntegerParam("pageMaxCount", query.get("pageMaxCount") ?? undefined, 1, MAX_PAGE_SIZE);
  if (!pageMaxCount.ok) return pageMaxCount;
  return {
    ok: true,
    value: {
      q: parsedQ.q,
      type: rawType === "" ? undefined : (rawType as SearchType),
      pageIndex: pageIndex.value ?? 0,
      pageMaxCount: pageMaxCount.value ?? DEFAULT_PAGE_SIZE,
    },
  };
}

export function parseSearchPage(query: URLSearchParams): { ok: true; value: SearchQuery } | { ok: false; error: string } {
  const parsedQ = parseQ(query);
  if (!parsedQ.ok) return parsedQ;
  const rawType = query.get("type");
  const { page, size } = listPagingOf(query);
  return { ok: true, value: { q: parsedQ.q, type: isSearchType(rawType) ? rawType : undefined, pageIndex: page - 1, pageMaxCount: size } };
}

export function searchKey({ q, type, pageIndex, pageMaxCount }: SearchQuery): string {
  const pairs: [string, string][] = [
    ["pageIndex", String(pageIndex)],
    ["pageMaxCount", String(pageMaxCount)],
  ];
  if (q !== "") pairs.push(["q", q]);
  if (type) pairs.push(["type", type]);
  return `${SEARCH_PATH}?${new URLSearchParams(pairs).toString()}`;
}
