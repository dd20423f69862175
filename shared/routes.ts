/** The table of the site's pages under the base path: one line per route module (docs/behaviour.md#adding-a-page). */
import { BASE_PATH, type PageRoute, type RouteMatch, splitLangPath } from "./page-route.ts";
import type { Lang } from "./page-state.ts";
import { about, founders, milestones } from "./pages/about-pages.ts";
import { contact } from "./pages/contact-page.ts";
import { home } from "./pages/home.ts";
import { jobSchoolDetail, jobSchoolList, jobSocietyDetail, jobSocietyList } from "./pages/job-pages.ts";
import { newsDetail, newsList, noticeDetail, noticeList } from "./pages/message-pages.ts";
import { productDetail, serviceDetail } from "./pages/offering-pages.ts";
import { search } from "./pages/search-page.ts";
import { parseId } from "./params.ts";
import { baseLang } from "./site-langs.ts";

export { BASE_PATH, langPath, langPrefix, type PageRoute, type RouteMatch, singleLangPath, splitLangPath } from "./page-route.ts";

export const HOME_PATH = home.path;

export const PAGE_ROUTES = [
  home,
  about,
  founders,
  milestones,
  newsList,
  noticeList,
  newsDetail,
  noticeDetail,
  productDetail,
  serviceDetail,
  jobSocietyList,
  jobSchoolList,
  jobSocietyDetail,
  jobSchoolDetail,
  contact,
  search,
] as const;

export type PageId = (typeof PAGE_ROUTES)[number]["id"];

export const PAGES = Object.fromEntries(PAGE_ROUTES.map((route) => [route.id, route])) as {
  [Id in PageId]: Extract<(typeof PAGE_ROUTES)[number], { id: Id }>;
};

/** By id, not by identity: the server and the SSR bundle each hold their own copy of the route modules. */
export const isHome = (route: PageRoute): boolean => route.id === home.id;

/** Where a page's back link leads: the last step of its trail, or home. */
export function parentHref(route: PageRoute): string {
  const parent = route.breadcrumb?.(undefined).at(-1) ?? home;
  return "id" in parent ? parent.href() : parent.href;
}

/** A detail page with a missing or malformed id still matches: it renders not-found. */
export function matchPage(pathInLang: string, query: URLSearchParams, routes: readonly PageRoute[] = PAGE_ROUTES): RouteMatch | null {
  return matchPath(splitLangPath(pathInLang).path, query, routes);
}

/** The page at a path whose language prefix is off already: a second prefix (`/en/...`) is no page's. */
export function matchPath(path: string, query: URLSearchParams, routes: readonly PageRoute[] = PAGE_ROUTES): RouteMatch | null {
  for (const route of routes) {
    if (path === route.path) {
      if (!route.detail) return { route };
      const parsed = parseId("id", query.get("id") ?? undefined);
      return { route, id: parsed.ok ? parsed.value : undefined };
    }
    if (route.detail && path.startsWith(`${route.path}/`)) {
      const segment = path.slice(route.path.length + 1);
      if (segment.includes("/")) continue;
      const parsed = parseId("id", segment);
      return { route, id: parsed.ok ? parsed.value : undefined };
    }
  }
  return null;
}

export function pageHref(page: PageRoute | PageId, itemId?: number, lang: Lang = baseLang()): string {
  const route: PageRoute = typeof page === "string" ? PAGES[page] : page;
  return BASE_PATH + route.href({ id: itemId, lang });
}
