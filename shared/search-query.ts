/** What the search page reads from its own URL, apart from shared/search.ts's parsers and their messages: the route table (in the page's first JavaScript) needs only this. */
import { listPagingQuery } from "./list-query.ts";

export const SEARCH_TYPES = ["news", "notice", "product", "service", "job"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const SEARCH_PATH = "/search";
export const MAX_QUERY_LENGTH = 100;

export const isSearchType = (value: unknown): value is SearchType => (SEARCH_TYPES as readonly unknown[]).includes(value);

const tidyQuery = (raw: string): string => raw.replace(/\s+/gu, " ").trim();

/** Characters, not UTF-16 units: 100 Chinese characters or emoji count as 100. */
export const lengthOf = (text: string) => [...text].length;

/** `q` as the page and the call both read it: once, tidied, at most MAX_QUERY_LENGTH characters. */
export function parseQ(query: URLSearchParams): { ok: true; q: string } | { ok: false; error: string } {
  const all = query.getAll("q");
  if (all.length > 1) return { ok: false, error: "q is given more than once" };
  const q = tidyQuery(all[0] ?? "");
  if (lengthOf(q) > MAX_QUERY_LENGTH) return { ok: false, error: `q must be at most ${MAX_QUERY_LENGTH} characters` };
  return { ok: true, q };
}

/** The page's values as `parseSearchPage` reads them (a unit test holds them equal), or undefined where it refuses the query. */
export function searchPageQuery(query: URLSearchParams): { q?: string; type?: SearchType; page?: number; size?: number } | undefined {
  const parsed = parseQ(query);
  if (!parsed.ok) return undefined;
  const type = query.get("type");
  return { q: parsed.q || undefined, type: isSearchType(type) ? type : undefined, ...listPagingQuery(query) };
}
