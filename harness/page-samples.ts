/**
 * One URL of every page in the route table, for the runs that visit every kind of page:
 * the SSR and browser tests, the audit and the reliability run. Derived from
 * PAGE_ROUTES, so a page added there is visited by all of them without another edit; a
 * detail page's URL names an item of the content the run serves.
 */
import { readFileSync } from "node:fs";
import type { SiteFile } from "../server/content/site-file.ts";
import { DEMO_SITE_FILE } from "../server/project-root.ts";
import type { PageRoute } from "../shared/page-route.ts";
import { PAGE_ROUTES, pageHref } from "../shared/routes.ts";

export interface SamplePage {
  route: PageRoute;
  /** With the base path. */
  path: string;
  /** The item a detail page's URL names. */
  itemId?: number;
}

/** An item of a list call's answer: its id, and the fields a detail page's list is filtered or ordered by. */
export type ListedItem = { id: number; dateTime?: string } & Record<string, unknown>;

/** The items a list call (its id in shared/call-table.ts) answers with, in the content a run serves. */
export type ItemsOf = (call: string) => readonly ListedItem[];

/**
 * One URL per page of the table, in its order. A detail page's names the item a visitor
 * would open first from its list: the newest of dated items (messages), else the lowest id.
 */
export function samplePages(itemsOf: ItemsOf, routes: readonly PageRoute[] = PAGE_ROUTES): SamplePage[] {
  return routes.map((route) => {
    const itemId = firstItemId(route, itemsOf);
    return { route, path: pageHref(route, itemId), ...(itemId === undefined ? {} : { itemId }) };
  });
}

function firstItemId(route: PageRoute, itemsOf: ItemsOf): number | undefined {
  if (!route.detail) return undefined;
  const { call, query = {} } = route.detail.items;
  const items = itemsOf(call).filter((item) => Object.entries(query).every(([field, value]) => item[field] === value));
  const dated = items.every((item) => typeof item.dateTime === "string");
  const [first] = [...items].sort((a, b) => (dated ? (b.dateTime ?? "").localeCompare(a.dateTime ?? "") || b.id - a.id : a.id - b.id));
  if (!first) throw new Error(`page ${route.id}: its list call ${call} has no item to show`);
  return first.id;
}

/** The demo content (content/site.json), as the embedded content API serves it. */
export const readDemoSite = (): SiteFile => JSON.parse(readFileSync(DEMO_SITE_FILE, "utf8")) as SiteFile;

/** The list calls of detail pages, answered from a site file. */
export function siteItems(site: SiteFile): ItemsOf {
  const lists: Record<string, readonly ListedItem[]> = {
    newsList: site.news,
    noticeList: site.notices,
    productList: site.products,
    serviceList: site.services,
    jobList: site.jobs,
  };
  return (call) => {
    const items = lists[call];
    if (!items) throw new Error(`a site file holds no list for the call ${call}`);
    return items;
  };
}
