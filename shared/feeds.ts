/** The RSS feeds (docs/behaviour.md#feeds): each one's list page, detail page and path in Chinese. */
import { BASE_PATH, type FeedKind, langPath } from "./page-route.ts";
import type { Lang } from "./page-state.ts";
import { newsDetail, newsList, noticeDetail, noticeList } from "./pages/message-pages.ts";

export type { FeedKind } from "./page-route.ts";

export const FEEDS = {
  news: { list: newsList, detail: newsDetail, path: "/message/news/rss.xml" },
  notice: { list: noticeList, detail: noticeDetail, path: "/message/notice/rss.xml" },
} as const satisfies Record<FeedKind, unknown>;

export const feedHref = (kind: FeedKind, lang: Lang): string => BASE_PATH + langPath(FEEDS[kind].path, lang);
