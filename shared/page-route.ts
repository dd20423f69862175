/**
 * What a page is, in one place: its route module. Everything else the site knows about
 * a page (matching a URL, the page cache key, the canonical URL, the data the server
 * loads and the browser asks for, the head, the breadcrumb, the sitemap) is derived
 * from these modules and the table that lists them (shared/routes.ts), and so is the
 * code that renders it: the module names its component, which client/pages/registry.ts
 * finds and loads on demand.
 */
import type { Job, Message, Product, Service } from "./entities.ts";
import type { FeedKind } from "./feeds.ts";
import type { Lang } from "./page-state.ts";
import type { QueryValues } from "./with-query.ts";

/** The item a detail page shows, as its data holds it (every field may be missing). */
export type PageItem = Partial<Message & Product & Service & Job>;

/** A step of a breadcrumb trail: another page, or a named place (an anchor on home, say). */
export type Crumb = PageRoute | { name: Record<Lang, string>; href: string };

/** How the sitemap lists a detail page's items: every item of a list call. */
export interface ItemList {
  /** The call id (shared/call-table.ts). */
  call: string;
  query?: Record<string, number>;
  /** Read page by page (`pageIndex`/`pageMaxCount`) rather than in one answer. */
  paged: boolean;
}

export interface PageDetail {
  /** The data key of the item `id`: a null answer there makes the page a 404. */
  key: (id: number) => string;
  /** What the item is: its head (description, Open Graph type, structured data) follows. */
  kind: "message" | "offering" | "job";
  /** The items the sitemap lists, at this page's URL. */
  items: ItemList;
  /** The page an item's canonical URL names, when the item itself says (a job's kind); else this one. */
  canonicalFor?: (item: PageItem | undefined) => PageRoute | undefined;
}

export interface PageRoute<Id extends string = string> {
  id: Id;
  /** Fixed path, relative to the base path. */
  path: string;
  /** The page's name, as its heading, its title and links to it show it. */
  title: Record<Lang, string>;
  /** The file under client/pages (without ".tsx") whose default export renders the page; pages alike share one. */
  component: string;
  /** A detail page: it also answers at `${path}/{id}`, and `${path}?id=` is the other form. */
  detail?: PageDetail;
  /**
   * The query parameters the page reads, parsed as it parses them and written back
   * normalised (defaults left out), in the order the site's links write them. A page
   * renders from these alone, so they are all its page cache key holds of the query.
   */
  query?: (query: URLSearchParams) => QueryValues;
  /** The canonical URL leaves the query out (a page whose query only says how much is shown). */
  canonicalWithoutQuery?: boolean;
  /**
   * The data keys its content needs beyond the shell's, from its item id and URL query.
   * When left out: a detail page's item (`detail.key`), and nothing for any other page.
   */
  dataKeys?: (id: number | undefined, query: URLSearchParams) => string[];
  /**
   * The data key of the one item whose translation makes the page a translation
   * (docs/behaviour.md#languages); a detail page's is its item. Left out (a list, home):
   * the page is English when its content calls are.
   */
  translatedBy?: () => string;
  /** The pages of the trail between home and this page (or this page's item); this page alone when left out. */
  breadcrumb?: (item: PageItem | undefined) => Crumb[];
  /** The RSS feeds the page announces in its head. */
  feeds?: readonly FeedKind[];
  /** In the sitemap (a detail page lists its items instead), with the newest date of that detail page's items. */
  sitemapLastmodFrom?: () => PageRoute;
  /** Its heading (and title) is the company's full name followed by the page's name. */
  headingWithFullName?: boolean;
  /** Rendered for each request and never kept by any cache (it holds a form token). */
  perRequest?: boolean;
  /** The kind of job a job page shows (1 experienced hires, 2 campus). */
  jobKind?: 1 | 2;
  /** Not for search engines: left out of the sitemap, and its head says `noindex` (the search page). */
  unlisted?: boolean;
}

/** Declares a route module, keeping its literal type: the table names its pages by their ids. */
export const definePage = <const Route extends PageRoute>(route: Route): Route => route;
