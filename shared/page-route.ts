/**
 * What a page is, in one place: its route module (docs/behaviour.md#route-modules).
 * Its links and data keys come from the module; the table of modules is shared/routes.ts.
 */
import type { Job, Message, Product, Service } from "./entities.ts";
import { addressTag, type Lang } from "./langs.ts";
import type { RouteTitleLang, SectionId } from "./page-titles.ts";
import { baseLang, prefixedLangOf } from "./site-langs.ts";
import { type QueryValues, withQuery } from "./with-query.ts";

export const BASE_PATH = "/portal";

/** The content's own language unprefixed; every other under its tag in lower case, `/en`, `/zh-tw` (docs/behaviour.md#languages). */
export const langPrefix = (lang: Lang): string => (lang === baseLang() ? "" : `/${addressTag(lang)}`);

/** The one reading of an address's language: its prefix, taken off once. What follows is the page's path. */
export function splitLangPath(path: string): { lang: Lang; path: string } {
  const end = path.indexOf("/", 1);
  const lang = prefixedLangOf(path.slice(1, end === -1 ? undefined : end));
  if (lang) return { lang, path: end === -1 ? "/" : path.slice(end) };
  return { lang: baseLang(), path };
}

/**
 * An address whose language prefix comes again (`/en/en/index.html`: a relative link followed on an English
 * page) with that prefix once, for a 301; undefined for any other (docs/behaviour.md#languages).
 */
export function singleLangPath(pathInLang: string): string | undefined {
  const { lang, path } = splitLangPath(pathInLang);
  let rest = path;
  for (let next = splitLangPath(rest); next.lang !== baseLang(); next = splitLangPath(rest)) rest = next.path;
  return rest === path ? undefined : langPath(rest, lang);
}

export const langPath = (path: string, lang: Lang): string => langPrefix(lang) + path;

export type FeedKind = "news" | "notice";

export type PageItem = Partial<Message & Product & Service & Job>;

/** A page, or a section of the home page (`section` names it in page-titles.ts). */
export type Crumb = PageRoute | { section: SectionId; title: Record<RouteTitleLang, string>; href: string };

/** How the sitemap lists a detail page's items. */
export interface ItemList {
  call: string;
  query?: Record<string, number>;
  paged: boolean;
}

export interface PageDetail {
  /** A null answer there makes the page a 404. */
  key: (id: number) => string;
  kind: "message" | "offering" | "job";
  items: ItemList;
  canonicalFor?: (item: PageItem | undefined) => PageRoute | undefined;
}

type HrefParams = QueryValues & { id?: number; lang?: Lang };

export interface PageRoute<Id extends string = string> {
  id: Id;
  /** Relative to the base path; a detail page also answers at `${path}/{id}` and `${path}?id=`. */
  path: string;
  /** Chinese and English; other languages in their own tables (page-titles.ts). */
  title: Record<RouteTitleLang, string>;
  detail?: PageDetail;
  /** All its page cache key holds of the query. */
  query?: (query: URLSearchParams) => QueryValues;
  canonicalWithoutQuery?: boolean;
  /** A detail page's item when left out. */
  dataKeys?: (id: number | undefined, query: URLSearchParams) => string[];
  /** As its component asks for them. */
  keys?: Readonly<Record<string, (...args: never[]) => string>>;
  itemPage?: () => PageRoute;
  translatedBy?: () => string;
  /** Its last step is where its back link leads. */
  breadcrumb?: (item: PageItem | undefined) => Crumb[];
  feeds?: readonly FeedKind[];
  sitemapLastmodFrom?: () => PageRoute;
  headingWithFullName?: boolean;
  perRequest?: boolean;
  jobKind?: 1 | 2;
  unlisted?: boolean;
  href(params?: HrefParams): string;
}

export interface RouteMatch {
  route: PageRoute;
  id?: number;
}

export type PageSpec = Omit<PageRoute, "href">;

type HrefParamsOf<Spec> = (Spec extends { detail: PageDetail } ? { id: number } : unknown) &
  (Spec extends { query: (query: URLSearchParams) => infer Values } ? Partial<Values> : unknown) & { lang?: Lang };

type HrefOf<Spec> = object extends HrefParamsOf<Spec> ? (params?: HrefParamsOf<Spec>) => string : (params: HrefParamsOf<Spec>) => string;

function hrefOf(route: PageSpec, { id, lang = baseLang(), ...query }: HrefParams = {}): string {
  return withQuery(langPrefix(lang) + (route.detail ? `${route.path}/${id ?? ""}` : route.path), query);
}

export function definePage<const Spec extends PageSpec>(spec: Spec): Spec & { href: HrefOf<Spec> } {
  return { ...spec, href: ((params?: HrefParams) => hrefOf(spec, params)) as HrefOf<Spec> };
}
