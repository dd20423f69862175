/**
 * The RSS feeds (served by server/seo/rss.ts, announced in the head of the pages whose
 * route module lists them): each feed's list page, the detail page its items link to,
 * and where it is served.
 */
import { newsDetail, newsList, noticeDetail, noticeList } from "./pages/message-pages.ts";

export type FeedKind = "news" | "notice";

export const FEEDS = {
  news: { list: newsList, detail: newsDetail, href: "/portal/message/news/rss.xml" },
  notice: { list: noticeList, detail: noticeDetail, href: "/portal/message/notice/rss.xml" },
} as const satisfies Record<FeedKind, unknown>;
