import type { PAGES, PageId } from "../../shared/routes.ts";

/** What a page's component receives: its route module (one of `Id`'s), the item id and the page URL's query. */
export interface PageProps<Id extends PageId = PageId> {
  match: { route: (typeof PAGES)[Id]; id?: number };
  query: URLSearchParams;
}

export interface PageModule<Id extends PageId = PageId> {
  default: (props: PageProps<Id>) => React.ReactNode;
}
