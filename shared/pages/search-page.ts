/** The site search page: results of `?q=` over news, notices, products, services and jobs, never in the sitemap. */
import { definePage } from "../page-route.ts";
import { DEFAULT_PAGE_SIZE } from "../params.ts";
import { SEARCH_PATH, searchPageQuery } from "../search-query.ts";

export const search = definePage({
  id: "search",
  path: "/search.html",
  title: { "zh-CN": "站内搜索", en: "Search" },
  query: (query) => searchPageQuery(query) ?? { q: query.get("q") ?? undefined },
  // shared/search.ts's searchKey, from the page's values.
  dataKeys: (_id, query) => {
    const { q, type, page = 1, size = DEFAULT_PAGE_SIZE } = searchPageQuery(query) ?? {};
    if (!q) return [];
    return [`${SEARCH_PATH}?${new URLSearchParams({ pageIndex: String(page - 1), pageMaxCount: String(size), q, ...(type && { type }) })}`];
  },
  unlisted: true,
});
