/** Each data call's key, which the server loads under and the browser asks for (docs/behaviour.md#page-data). */
import { callKey, getCallOf } from "./call-table.ts";
import type { ClassifyMenu } from "./entities.ts";
import type { JobFilter, ListPaging } from "./list-query.ts";
import type { RouteMatch } from "./page-route.ts";
import type { Lang } from "./page-state.ts";
import { baseLang, siteLangOf } from "./site-langs.ts";

export const apiKey = callKey;

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

export function detailKey(match: RouteMatch): string | undefined {
  return match.id === undefined ? undefined : match.route.detail?.key(match.id);
}

export function translationKey(match: RouteMatch): string | undefined {
  return match.route.detail ? detailKey(match) : match.route.translatedBy?.();
}

export const CONTENT_LANG_QUERY = "lang";

/** A language other than the content's own adds `lang=<tag>` among the sorted parameters, so each language has keys of its own; uncached calls have none. */
export function keyInLang(key: string, lang: Lang): string {
  if (lang === baseLang() || getCallOf(key)?.uncached) return key;
  const q = key.indexOf("?");
  const pairs = [...new URLSearchParams(q === -1 ? "" : key.slice(q + 1))];
  pairs.push([CONTENT_LANG_QUERY, lang]);
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${q === -1 ? key : key.slice(0, q)}?${new URLSearchParams(pairs)}`;
}

export function keyLangOf(key: string): { key: string; lang: Lang } {
  const q = key.indexOf("?");
  if (q === -1) return { key, lang: baseLang() };
  const query = new URLSearchParams(key.slice(q + 1));
  const lang = siteLangOf(query.get(CONTENT_LANG_QUERY));
  if (!lang || lang === baseLang()) return { key, lang: baseLang() };
  query.delete(CONTENT_LANG_QUERY);
  const rest = query.toString();
  return { key: rest ? `${key.slice(0, q)}?${rest}` : key.slice(0, q), lang };
}
