/**
 * The RSS feeds (served by server/seo/rss.ts, announced in the head of the pages whose
 * route module lists them): each feed's list page, the detail page its items link to,
 * and where it is served.
 */
import { BASE_PATH, type FeedKind, langPath } from "./page-route.ts";
import type { Lang } from "./page-state.ts";
import { newsDetail, newsList, noticeDetail, noticeList } from "./pages/message-pages.ts";

export type { FeedKind } from "./page-route.ts";

/** `path` is under the base path, in Chinese; each language has its feed at that path in it. */
export const FEEDS = {
  news: { list: newsList, detail: newsDetail, path: "/message/news/rss.xml" },
  notice: { list: noticeList, detail: noticeDetail, path: "/message/notice/rss.xml" },
} as const satisfies Record<FeedKind, unknown>;

/** Where a feed is served in a language: `/portal/message/news/rss.xml`, `/portal/en/message/news/rss.xml`. */
export const feedHref = (kind: FeedKind, lang: Lang): string => BASE_PATH + langPath(FEEDS[kind].path, lang);
