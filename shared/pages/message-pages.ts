/** The news and notice pages: a paged list of each, and the page of one message. */
import { keys } from "../data-keys.ts";
import { listPagingOf, listPagingQuery } from "../list-query.ts";
import { type Crumb, definePage, type PageRoute } from "../page-route.ts";

export const newsDetail = definePage({
  id: "newsDetail",
  path: "/message/news",
  title: {
    "zh-CN": "新闻详情",
    en: "News",
    "zh-TW": "新聞詳情",
    ja: "ニュース",
    ko: "뉴스",
    es: "Noticias",
    fr: "Actualités",
    de: "Neuigkeiten",
    ru: "Новости",
    ar: "الأخبار",
  },
  detail: { key: keys.news, kind: "message", items: { call: "newsList", paged: true } },
  breadcrumb: (): Crumb[] => [newsList],
});

export const noticeDetail = definePage({
  id: "noticeDetail",
  path: "/message/notice",
  title: {
    "zh-CN": "公告详情",
    en: "Notice",
    "zh-TW": "公告詳情",
    ja: "お知らせ",
    ko: "공지사항",
    es: "Aviso",
    fr: "Avis",
    de: "Mitteilung",
    ru: "Объявление",
    ar: "إعلان",
  },
  detail: { key: keys.notice, kind: "message", items: { call: "noticeList", paged: true } },
  breadcrumb: (): Crumb[] => [noticeList],
});

export const newsList = definePage({
  id: "newsList",
  path: "/message/news/list.html",
  title: {
    "zh-CN": "新闻动态",
    en: "News",
    "zh-TW": "新聞動態",
    ja: "ニュース",
    ko: "뉴스",
    es: "Noticias",
    fr: "Actualités",
    de: "Neuigkeiten",
    ru: "Новости",
    ar: "الأخبار",
  },
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
  title: {
    "zh-CN": "通知公告",
    en: "Notices",
    "zh-TW": "通知公告",
    ja: "お知らせ",
    ko: "공지사항",
    es: "Avisos",
    fr: "Avis",
    de: "Mitteilungen",
    ru: "Объявления",
    ar: "الإعلانات",
  },
  query: listPagingQuery,
  keys: { list: keys.noticeList },
  dataKeys: (_id, query) => [keys.noticeList(listPagingOf(query))],
  itemPage: () => noticeDetail,
  feeds: ["notice"],
  sitemapLastmodFrom: (): PageRoute => noticeDetail,
});
