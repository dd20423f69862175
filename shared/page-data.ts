/**
 * Which data calls each page needs, as keys: a call path relative to /api/portal plus
 * its normalised query. The server loads exactly these before rendering and hands
 * them to the browser; the browser's hooks ask for the same keys, so hydration finds
 * every answer already there.
 */
import { findCall, normaliseCallQuery } from "./api-calls.ts";
import type { ClassifyMenu } from "./entities.ts";
import { DEFAULT_PAGE_SIZE } from "./params.ts";
import type { PageId, RouteMatch } from "./routes.ts";

/** The key of a call: `findCall(id)` with `{id}` filled and the query normalised. */
export function apiKey(callId: string, options: { id?: number; query?: Record<string, string | number | undefined> } = {}): string {
  const call = findCall(callId);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) params.set(name, String(value));
  const normalised = normaliseCallQuery(call, params);
  if (!normalised.ok) throw new Error(`bad query for ${callId}: ${normalised.error}`);
  const path = options.id === undefined ? call.path : call.path.replace("{id}", String(options.id));
  return path + normalised.search;
}

/** The key of a configured classify call (its `api` is a full path under /api/portal). */
export function classifyKey(menu: ClassifyMenu): string {
  return menu.api.replace(/^\/api\/portal/, "");
}

export const PAGE_SIZES = [1, 10, 20, 50, 100] as const;
export const HOME_MESSAGE_COUNT = 4;
export const MILESTONE_PAGE_SIZE = 10;

export interface ListPaging {
  /** 1-based, as shown and as written in the page URL. */
  page: number;
  size: number;
}

/** `?page=` and `?size=` of a list page; anything unexpected falls back to the defaults. */
export function listPagingOf(query: URLSearchParams): ListPaging {
  const page = Number(query.get("page"));
  const size = Number(query.get("size"));
  return {
    page: /^[1-9]\d{0,5}$/.test(query.get("page") ?? "") && page <= 100_001 ? page : 1,
    size: (PAGE_SIZES as readonly number[]).includes(size) && /^[1-9]\d*$/.test(query.get("size") ?? "") ? size : DEFAULT_PAGE_SIZE,
  };
}

/** Ids from a comma list of the page URL; malformed entries are dropped rather than refused. */
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

/**
 * The job list's filter from its page URL. Ids come comma-joined from links, or as one
 * parameter per ticked box from the filter form submitted without JavaScript; both read
 * the same.
 */
export function jobFilterOf(query: URLSearchParams): JobFilter {
  const ids = (name: string) => idListOf(query.getAll(name).join(","));
  return { ...listPagingOf(query), jobTypeIds: ids("jobTypeIds"), jobAddrIds: ids("jobAddrIds") };
}

export const JOB_KIND_OF_PAGE: Partial<Record<PageId, 1 | 2>> = {
  jobSocietyList: 1,
  jobSocietyDetail: 1,
  jobSchoolList: 2,
  jobSchoolDetail: 2,
};

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

/** Calls every page needs: site config and author (the first paint), menus and their classify data. */
export function shellKeys(classify: readonly ClassifyMenu[]): string[] {
  return [keys.syscfg(), keys.sysauthor(), keys.menus(), ...classify.map(classifyKey)];
}

/** The key whose "no such item" makes the page a 404, for detail pages. */
export function detailKey(match: RouteMatch): string | undefined {
  if (match.id === undefined) return undefined;
  switch (match.route.id) {
    case "newsDetail":
      return keys.news(match.id);
    case "noticeDetail":
      return keys.notice(match.id);
    case "productDetail":
      return keys.product(match.id);
    case "serviceDetail":
      return keys.service(match.id);
    case "jobSocietyDetail":
    case "jobSchoolDetail":
      return keys.job(match.id);
    default:
      return undefined;
  }
}

/** The calls a page's content needs, beyond the shell's. */
export function pageKeys(match: RouteMatch, query: URLSearchParams): string[] {
  const detail = detailKey(match);
  switch (match.route.id) {
    case "home":
      return [keys.slides(), keys.indexHtml(), keys.products(), keys.services(), keys.homeNews(), keys.homeNotices(), keys.partners()];
    case "about":
      return [keys.company()];
    case "founders":
      return [keys.founders()];
    case "milestones":
      return [keys.milestones(listPagingOf(query).page - 1)];
    case "newsList":
      return [keys.newsList(listPagingOf(query))];
    case "noticeList":
      return [keys.noticeList(listPagingOf(query))];
    case "jobSocietyList":
    case "jobSchoolList":
      return [keys.jobTypes(), keys.jobAddrs(), keys.jobs(JOB_KIND_OF_PAGE[match.route.id] as 1 | 2, jobFilterOf(query))];
    case "jobSocietyDetail":
    case "jobSchoolDetail":
      return detail ? [detail, keys.jobTypes(), keys.jobAddrs()] : [];
    default:
      return detail ? [detail] : [];
  }
}
