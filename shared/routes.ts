/**
 * The page route table of SPEC section 2, under the base path /portal. Both the
 * server (status, data, title) and the client router read it.
 */
import { parseId } from "./params.ts";

export const BASE_PATH = "/portal";
export const HOME_PATH = "/index.html";

export type PageId =
  | "home"
  | "about"
  | "founders"
  | "milestones"
  | "newsList"
  | "noticeList"
  | "newsDetail"
  | "noticeDetail"
  | "productDetail"
  | "serviceDetail"
  | "jobSocietyList"
  | "jobSchoolList"
  | "jobSocietyDetail"
  | "jobSchoolDetail";

export interface PageRoute {
  id: PageId;
  /** Fixed path, relative to the base path. */
  path: string;
  /** Detail pages also answer at `${path}/{id}`; `${path}?id=` is the other form. */
  detail?: boolean;
}

export const PAGE_ROUTES: readonly PageRoute[] = [
  { id: "home", path: "/index.html" },
  { id: "about", path: "/about/index.html" },
  { id: "founders", path: "/about/member/index.html" },
  { id: "milestones", path: "/about/milepost/index.html" },
  { id: "newsList", path: "/message/news/list.html" },
  { id: "noticeList", path: "/message/notice/list.html" },
  { id: "newsDetail", path: "/message/news", detail: true },
  { id: "noticeDetail", path: "/message/notice", detail: true },
  { id: "productDetail", path: "/product", detail: true },
  { id: "serviceDetail", path: "/service", detail: true },
  { id: "jobSocietyList", path: "/job/society/index.html" },
  { id: "jobSchoolList", path: "/job/school/index.html" },
  { id: "jobSocietyDetail", path: "/job/society", detail: true },
  { id: "jobSchoolDetail", path: "/job/school", detail: true },
];

export interface RouteMatch {
  route: PageRoute;
  /** A detail page's id; undefined when it is missing or not a valid id. */
  id?: number;
}

/**
 * The page a path (relative to the base path) names, or null for "any other path".
 * A detail page with a missing or malformed id still matches: it renders not-found.
 */
export function matchPage(path: string, query: URLSearchParams): RouteMatch | null {
  for (const route of PAGE_ROUTES) {
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

/** The canonical href of a page, including the base path. */
export function pageHref(id: PageId, itemId?: number): string {
  const route = PAGE_ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`unknown page ${id}`);
  if (route.detail) return `${BASE_PATH}${route.path}/${itemId ?? ""}`;
  return `${BASE_PATH}${route.path}`;
}
