/**
 * Site search as both sides see it (docs/behaviour.md#search): the kinds of item, the
 * answer's shape, the marks around matched text, and the parameters of the search call
 * (`/api/portal/search`) and of the search page, parsed the one way both read them.
 */
import { listPagingOf } from "./list-query.ts";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_INDEX, MAX_PAGE_SIZE, parseIntegerParam } from "./params.ts";

export const SEARCH_TYPES = ["news", "notice", "product", "service", "job"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** The search call's path under /api/portal. */
export const SEARCH_PATH = "/search";
/** Longer queries are refused (400). */
export const MAX_QUERY_LENGTH = 100;
/** Where a match begins and ends in a result's `title` and `snippet` (private-use characters, never in content). */
export const MARK_START = "\uE000";
export const MARK_END = "\uE001";

export interface SearchHit {
  type: SearchType;
  id: number;
  /** Plain text, the match between MARK_START and MARK_END. */
  title: string;
  snippet: string;
  /** The item's detail page, with the base path. */
  url: string;
  dateTime?: string;
}

export interface SearchResult {
  pageDataList: SearchHit[];
  totalCount: number;
  totalPageCount: number;
  /** Matches per type, whatever `type` the search was narrowed to. */
  facets: Record<SearchType, number>;
}

export interface SearchQuery {
  /** Trimmed, runs of white space made one space; "" finds nothing. */
  q: string;
  type?: SearchType;
  pageIndex: number;
  pageMaxCount: number;
}

export const isSearchType = (value: unknown): value is SearchType => (SEARCH_TYPES as readonly unknown[]).includes(value);

/** The query text as it is searched for and keyed: trimmed, white space runs made one space. */
export const tidyQuery = (raw: string): string => raw.replace(/\s+/gu, " ").trim();

/** Characters, not UTF-16 units: a visitor's 100 Chinese characters or emoji count as 100. */
const lengthOf = (text: string) => [...text].length;

/** `q` once at most, at most MAX_QUERY_LENGTH characters once tidied. */
function parseQ(query: URLSearchParams): { ok: true; q: string } | { ok: false; error: string } {
  const all = query.getAll("q");
  if (all.length > 1) return { ok: false, error: "q is given more than once" };
  const q = tidyQuery(all[0] ?? "");
  if (lengthOf(q) > MAX_QUERY_LENGTH) return { ok: false, error: `q must be at most ${MAX_QUERY_LENGTH} characters` };
  return { ok: true, q };
}

/** The search call's query (`q`, `type`, `pageIndex`, `pageMaxCount`), validated as the other calls' are: a mistake is a 400. */
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

/**
 * The search page's query (`q`, `type`, `page`, `size`): `q` as the call takes it (a
 * mistake there is the page's 400), the rest as list pages read theirs, falling back
 * to the defaults.
 */
export function parseSearchPage(query: URLSearchParams): { ok: true; value: SearchQuery } | { ok: false; error: string } {
  const parsedQ = parseQ(query);
  if (!parsedQ.ok) return parsedQ;
  const rawType = query.get("type");
  const { page, size } = listPagingOf(query);
  return { ok: true, value: { q: parsedQ.q, type: isSearchType(rawType) ? rawType : undefined, pageIndex: page - 1, pageMaxCount: size } };
}

/** The data key of a search (its path under /api/portal and query, sorted by name as every key is). */
export function searchKey({ q, type, pageIndex, pageMaxCount }: SearchQuery): string {
  const pairs: [string, string][] = [
    ["pageIndex", String(pageIndex)],
    ["pageMaxCount", String(pageMaxCount)],
  ];
  if (q !== "") pairs.push(["q", q]);
  if (type) pairs.push(["type", type]);
  return `${SEARCH_PATH}?${new URLSearchParams(pairs).toString()}`;
}
