/**
 * The key of each data call: its path relative to /api/portal plus its normalised
 * query. The server loads data under these keys and hands it to the browser; the
 * browser's hooks ask for the same keys, so hydration finds every answer already there.
 */
import { callKey } from "./call-table.ts";
import type { ClassifyMenu } from "./entities.ts";
import type { JobFilter, ListPaging } from "./list-query.ts";
import type { RouteMatch } from "./routes.ts";

/** The key of a call: its path with `{id}` filled and the query normalised (see `callKey`). */
export const apiKey = callKey;

/** The key of a configured classify call (its `api` is a full path under /api/portal). */
export function classifyKey(menu: ClassifyMenu): string {
  return menu.api.replace(/^\/api\/portal/, "");
}

export const HOME_MESSAGE_COUNT = 4;
export const MILESTONE_PAGE_SIZE = 10;

export const pagingQuery = (paging: ListPaging) => ({ pageIndex: paging.page - 1, pageMaxCount: paging.size });

export const keys = {
  syscfg: () => apiKey("syscfg"),
  sysauthor: () => apiKey("sysauthor"),
  menus: () => apiKey("menuList"),
  indexHtml: () => apiKey("indexHtml"),
  slides: () => apiKey("slideList"),
  products: () => apiKey("productList"),
  product: (id: number) => apiKey("product", { id }),
  services: () => apiKey("serviceList"),
  service: (id: number) => apiKey("service", { id }),
  homeNews: () => apiKey("newsList", { query: { pageIndex: 0, pageMaxCount: HOME_MESSAGE_COUNT } }),
  homeNotices: () => apiKey("noticeList", { query: { pageIndex: 0, pageMaxCount: HOME_MESSAGE_COUNT } }),
  newsList: (paging: ListPaging) => apiKey("newsList", { query: pagingQuery(paging) }),
  noticeList: (paging: ListPaging) => apiKey("noticeList", { query: pagingQuery(paging) }),
  news: (id: number) => apiKey("news", { id }),
  notice: (id: number) => apiKey("notice", { id }),
  partners: () => apiKey("partnerList"),
  company: () => apiKey("company"),
  founders: () => apiKey("founderList"),
  milestones: (pageIndex: number) => apiKey("milestoneList", { query: { pageIndex, pageMaxCount: MILESTONE_PAGE_SIZE } }),
  jobTypes: () => apiKey("jobTypeList"),
  jobAddrs: () => apiKey("jobAddrList"),
  jobs: (type: 1 | 2, filter: JobFilter) =>
    apiKey("jobList", {
      query: { ...pagingQuery(filter), type, jobTypeIds: filter.jobTypeIds.join(","), jobAddrIds: filter.jobAddrIds.join(",") },
    }),
  job: (id: number) => apiKey("job", { id }),
  readerCount: (type: 1 | 2, pid: number) => apiKey("readerCount", { query: { type, pid } }),
};

/** The key whose "no such item" makes the page a 404, for detail pages with a valid id. */
export function detailKey(match: RouteMatch): string | undefined {
  return match.id === undefined ? undefined : match.route.detail?.key(match.id);
}
