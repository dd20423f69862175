/**
 * What a page is, in one place: its route module (docs/behaviour.md#adding-a-page).
 * Its links and data keys come from the module; the table of modules is shared/routes.ts.
 */
import type { Job, Message, Product, Service } from "./entities.ts";
import type { Lang } from "./page-state.ts";
import { type QueryValues, withQuery } from "./with-query.ts";

export const BASE_PATH = "/portal";

/** Chinese, the content's own language, unprefixed; English under `/en` (docs/behaviour.md#languages). */
export const LANG_PREFIX: Readonly<Record<Lang, string>> = { "zh-CN": "", en: "/en" };

/** The language of a path under the base path, and the path with its language prefix taken off. */
export function splitLangPath(path: string): { lang: Lang; path: string } {
  if (path === "/en" || path.startsWith("/en/")) return { lang: "en", path: path.slice(LANG_PREFIX.en.length) || "/" };
  return { lang: "zh-CN", path };
}

export const langPath = (path: string, lang: Lang): string => LANG_PREFIX[lang] + path;

export type FeedKind = "news" | "notice";

/** The item a detail page shows, as its data holds it (every field may be missing). */
export type PageItem = Partial<Message & Product & Service & Job>;

/** A step of a breadcrumb trail: another page, or a named place (an anchor on home, say). */
export type Crumb = PageRoute | { name: Record<Lang, string>; href: string };

/** How the sitemap lists a detail page's items: every item of a list call (shared/call-table.ts). */
export interface ItemList {
  call: string;
  query?: Record<string, number>;
  /** Read page by page (`pageIndex`/`pageMaxCount`) rather than in one answer. */
  paged: boolean;
}

export interface PageDetail {
  /** The data key of the item `id`: a null answer there makes the page a 404. */
  key: (id: number) => string;
  kind: "message" | "offering" | "job";
  items: ItemList;
  /** The page an item's canonical URL names, when the item itself says (a job's kind). */
  canonicalFor?: (item: PageItem | undefined) => PageRoute | undefined;
}

/** What `href` takes: a detail page's item id, the query values the page reads, its language (Chinese when left out). */
export type HrefParams = QueryValues & { id?: number; lang?: Lang };

export interface PageRoute<Id extends string = string> {
  id: Id;
  /** Fixed path, relative to the base path; a detail page also answers at `${path}/{id}` and `${path}?id=`. */
  path: string;
  title: Record<Lang, string>;
  detail?: PageDetail;
  /** The query values the page reads, normalised (defaults left out): all its page cache key holds of the query. */
  query?: (query: URLSearchParams) => QueryValues;
  canonicalWithoutQuery?: boolean;
  /** The data keys the server loads beyond the shell's; a detail page's item when left out. */
  dataKeys?: (id: number | undefined, query: URLSearchParams) => string[];
  /** Its data keys by name, as its component asks for them. */
  keys?: Readonly<Record<string, (...args: never[]) => string>>;
  /** A list's items link to this page. */
  itemPage?: () => PageRoute;
  /** The one item whose translation makes the page a translation (docs/behaviour.md#languages). */
  translatedBy?: () => string;
  /** The pages between home and this page (or its item); the last one is where its back link leads. */
  breadcrumb?: (item: PageItem | undefined) => Crumb[];
  feeds?: readonly FeedKind[];
  /** Listed in the sitemap with the newest date of that detail page's items. */
  sitemapLastmodFrom?: () => PageRoute;
  headingWithFullName?: boolean;
  /** Rendered for each request and never cached (it holds a form token). */
  perRequest?: boolean;
  jobKind?: 1 | 2;
  /** Left out of the sitemap, and its head says `noindex`. */
  unlisted?: boolean;
  /** Its address under the base path. */
  href(params?: HrefParams): string;
}

export interface RouteMatch {
  route: PageRoute;
  /** A detail page's id; undefined when it is missing or not a valid id. */
  id?: number;
}

export type PageSpec = Omit<PageRoute, "href">;

type HrefParamsOf<Spec> = (Spec extends { detail: PageDetail } ? { id: number } : unknown) &
  (Spec extends { query: (query: URLSearchParams) => infer Values } ? Partial<Values> : unknown) & { lang?: Lang };

type HrefOf<Spec> = object extends HrefParamsOf<Spec> ? (params?: HrefParamsOf<Spec>) => string : (params: HrefParamsOf<Spec>) => string;

function hrefOf(route: PageSpec, { id, lang = "zh-CN", ...query }: HrefParams = {}): string {
  return withQuery(LANG_PREFIX[lang] + (route.detail ? `${route.path}/${id ?? ""}` : route.path), query);
}

/** Declares a route module, keeping its literal type: the table names its pages by their ids. */
export function definePage<const Spec extends PageSpec>(spec: Spec): Spec & { href: HrefOf<Spec> } {
  return { ...spec, href: ((params?: HrefParams) => hrefOf(spec, params)) as HrefOf<Spec> };
}
