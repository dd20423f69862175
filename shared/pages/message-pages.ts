/** The news and notice pages: a paged list of each, and the page of one message. */
import { keys } from "../data-keys.ts";
import { listPagingOf, listPagingQuery } from "../list-query.ts";
import { type Crumb, definePage, type PageRoute } from "../page-route.ts";

export const newsDetail = definePage({
  id: "newsDetail",
  path: "/message/news",
  title: { "zh-CN": "新闻详情", en: "News" },
  detail: { key: keys.news, kind: "message", items: { call: "newsList", paged: true } },
  breadcrumb: (): Crumb[] => [newsList],
});

export const noticeDetail = definePage({
  id: "noticeDetail",
  path: "/message/notice",
  title: { "zh-CN": "公告详情", en: "Notice" },
  detail: { key: keys.notice, kind: "message", items: { call: "noticeList", paged: true } },
  breadcrumb: (): Crumb[] => [noticeList],
});

export const newsList = definePage({
  id: "newsList",
  path: "/message/news/list.html",
  title: { "zh-CN": "新闻动态", en: "News" },
  query: listPagingQuery,
  keys: { list: keys.newsList },
  dataKeys: (_id, query) => [keys.newsList(listPagingOf(query))],
  itemPage: () => newsDetail,
  feeds: ["news"],
  sitemapLastmodFrom: (): PageRoute => newsDetail,
});

export const noticeList = definePage({
  id: "noticeList",
  path: "/message/notice/list.html",
  title: { "zh-CN": "通知公告", en: "Notices" },
  query: listPagingQuery,
  keys: { list: keys.noticeList },
  dataKeys: (_id, query) => [keys.noticeList(listPagingOf(query))],
  itemPage: () => noticeDetail,
  feeds: ["notice"],
  sitemapLastmodFrom: (): PageRoute => noticeDetail,
});
