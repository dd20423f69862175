/** The arithmetic of list paging, apart from its markup (client/components/pagination.tsx). */
import type { ListPaging } from "../../shared/list-query.ts";
import { DEFAULT_PAGE_SIZE } from "../../shared/params.ts";
import { type QueryValues, withQuery } from "../../shared/with-query.ts";

/** The href of one page of a list: page 1 and the default size are left out. */
export function listHref(path: string, page: number, size: number, keep: QueryValues = {}): string {
  return withQuery(path, { ...keep, page: page > 1 ? page : undefined, size: size !== DEFAULT_PAGE_SIZE ? size : undefined });
}

export type PageItem = number | "gap-before" | "gap-after";

/** Page numbers to show: all of up to 7 pages, else the first, the last, and two either side of the current one. */
export function pageItems(current: number, total: number): PageItem[] {
  if (total <= 7) return Array.from({ length: total }, (_, i) => i + 1);
  const at = Math.min(Math.max(current, 1), total);
  const from = Math.max(2, Math.min(at - 2, total - 5));
  const to = Math.min(total - 1, Math.max(at + 2, 6));
  const items: PageItem[] = [1];
  if (from > 2) items.push("gap-before");
  for (let page = from; page <= to; page++) items.push(page);
  if (to < total - 1) items.push("gap-after");
  items.push(total);
  return items;
}

/** The page shown first after a size change, so the first item in view stays in view. */
export function pageAfterResize(paging: ListPaging, size: number): number {
  return Math.floor(((paging.page - 1) * paging.size) / size) + 1;
}
