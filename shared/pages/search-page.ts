/** The site search page: results of `?q=` over news, notices, products, services and jobs, never in the sitemap. */
import { definePage } from "../page-route.ts";
import { parseSearchPage, searchKey } from "../search.ts";

export const search = definePage({
  id: "search",
  path: "/search.html",
  title: { "zh-CN": "站内搜索", en: "Search" },
  query: (query) => {
    const parsed = parseSearchPage(query);
    if (!parsed.ok) return { q: query.get("q") ?? undefined };
    const { q, type, pageIndex, pageMaxCount } = parsed.value;
    return {
      q: q || undefined,
      type,
      page: pageIndex > 0 ? pageIndex + 1 : undefined,
      size: pageMaxCount !== 20 ? pageMaxCount : undefined,
    };
  },
  dataKeys: (_id, query) => {
    const parsed = parseSearchPage(query);
    return parsed.ok && parsed.value.q !== "" ? [searchKey(parsed.value)] : [];
  },
  unlisted: true,
});
