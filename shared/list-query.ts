/** What a list page reads from its own URL (docs/behaviour.md#list-pages). */
import { DEFAULT_PAGE_SIZE } from "./params.ts";

export const PAGE_SIZES = [1, 10, 20, 50, 100] as const;

export interface ListPaging {
  page: number;
  size: number;
}

export function listPagingOf(query: URLSearchParams): ListPaging {
  const page = Number(query.get("page"));
  const size = Number(query.get("size"));
  return {
    page: /^[1-9]\d{0,5}$/.test(query.get("page") ?? "") && page <= 100_001 ? page : 1,
    size: (PAGE_SIZES as readonly number[]).includes(size) && /^[1-9]\d*$/.test(query.get("size") ?? "") ? size : DEFAULT_PAGE_SIZE,
  };
}

export function listPagingQuery(query: URLSearchParams): { page?: number; size?: number } {
  const { page, size } = listPagingOf(query);
  return { page: page > 1 ? page : undefined, size: size !== DEFAULT_PAGE_SIZE ? size : undefined };
}

export function idListOf(raw: string | null): number[] {
  if (!raw) return [];
  const ids = raw
    .split(",")
    .filter((part) => /^[1-9]\d{0,15}$/.test(part))
    .map(Number)
    .filter(Number.isSafeInteger);
  return [...new Set(ids)].sort((a, b) => a - b).slice(0, 100);
}

export interface JobFilter extends ListPaging {
  jobTypeIds: number[];
  jobAddrIds: number[];
}

/** Ids come comma-joined from links, or one parameter per ticked box from the form without JavaScript. */
export function jobFilterOf(query: URLSearchParams): JobFilter {
  const ids = (name: string) => idListOf(query.getAll(name).join(","));
  return { ...listPagingOf(query), jobTypeIds: ids("jobTypeIds"), jobAddrIds: ids("jobAddrIds") };
}
