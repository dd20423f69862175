/** RSS 2.0 feeds of news and of notices (docs/behaviour.md#feeds). */
import { absoluteUrl } from "../../shared/absolute-url.ts";
import type { Author, Message, SiteConfig } from "../../shared/entities.ts";
import type { Paged } from "../../shared/envelope.ts";
import { FEEDS, type FeedKind, feedHref } from "../../shared/feeds.ts";
import { apiKey, keys } from "../../shared/page-data.ts";
import { isUntranslated, type Lang } from "../../shared/page-state.ts";
import { addAllPageTitles } from "../../shared/page-titles/all.ts";
import { pageTitle } from "../../shared/page-titles.ts";
import { pageHref } from "../../shared/routes.ts";
import { baseLang } from "../../shared/site-langs.ts";
import type { ApiReader } from "../api-proxy/api-reader.ts";
import { rfc822Of } from "./message-dates.ts";
import { readerInLang, readPayload } from "./read-upstream.ts";
import { escapeXml, XML_DECLARATION } from "./xml.ts";

// A feed is written without the browser's loading of a language's strings: every language's page names at hand.
addAllPageTitles();

const FEED_ITEM_COUNT = 50;

interface FeedChannel {
  title: string;
  link: string;
  description: string;
  language: string;
  self: string;
}

interface FeedItem {
  title: string;
  link: string;
  description: string;
  pubDate?: string;
}

function rssXml(channel: FeedChannel, items: readonly FeedItem[]): string {
  const text = (name: string, value: string) => `<${name}>${escapeXml(value)}</${name}>`;
  const lastBuild = items.find((item) => item.pubDate)?.pubDate;
  const body = items.map((item) =>
    [
      "<item>",
      text("title", item.title),
      text("link", item.link),
      `<guid isPermaLink="true">${escapeXml(item.link)}</guid>`,
      text("description", item.description),
      item.pubDate ? text("pubDate", item.pubDate) : "",
      "</item>",
    ].join(""),
  );
  return [
    XML_DECLARATION,
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    "<channel>",
    text("title", channel.title),
    text("link", channel.link),
    text("description", channel.description),
    text("language", channel.language),
    `<atom:link href="${escapeXml(channel.self)}" rel="self" type="application/rss+xml"/>`,
    lastBuild ? text("lastBuildDate", lastBuild) : "",
    ...body,
    "</channel>",
    "</rss>",
  ]
    .filter(Boolean)
    .join("\n")
    .concat("\n");
}

/** Items without a valid date go last. */
function newestFirst(messages: Message[]): Message[] {
  const key = (m: Message) => (rfc822Of(m.dateTime) ? m.dateTime : "");
  return messages
    .map((message, index) => ({ message, index }))
    .sort((a, b) => {
      const [ka, kb] = [key(a.message), key(b.message)];
      return ka === kb ? a.index - b.index : ka < kb ? 1 : -1;
    })
    .map((entry) => entry.message);
}

/** Throws when the list call fails (503); the site config or author failing only leaves the channel plainer. */
export async function buildFeed(
  anyReader: ApiReader,
  kind: FeedKind,
  origin: string | undefined,
  lang: Lang,
  contentLang = false,
): Promise<{ xml: string; complete: boolean }> {
  const feed = FEEDS[kind];
  const inLang = lang !== baseLang() && contentLang;
  const reader = readerInLang(anyReader, inLang ? lang : baseLang());
  const listKey = apiKey(feed.detail.detail.items.call, { query: { pageIndex: 0, pageMaxCount: FEED_ITEM_COUNT } });
  const [list, config, author] = await Promise.all([
    readPayload<Paged<Message>>(reader, listKey, "paged"),
    readPayload<SiteConfig>(reader, keys.syscfg(), "object").catch(() => undefined),
    readPayload<Author>(reader, keys.sysauthor(), "object").catch(() => undefined),
  ]);
  const listTitle = pageTitle(feed.list, lang);
  const messages = (list.pageDataList ?? []).filter((m) => Number.isSafeInteger(m?.id) && m.id > 0);
  const items = newestFirst(messages)
    .slice(0, FEED_ITEM_COUNT)
    .map((m) => ({
      title: String(m.title ?? ""),
      link: absoluteUrl(origin, pageHref(feed.detail, m.id, inLang && !isUntranslated(m) ? lang : baseLang())),
      description: String(m.brief ?? ""),
      pubDate: rfc822Of(m.dateTime),
    }));
  const xml = rssXml(
    {
      title: [author?.name, listTitle].filter(Boolean).join(" - "),
      link: absoluteUrl(origin, pageHref(feed.list, undefined, lang)),
      description: config?.metaDescription || listTitle,
      language: lang.toLowerCase(),
      self: absoluteUrl(origin, feedHref(kind, lang)),
    },
    items,
  );
  return { xml, complete: config !== undefined && author !== undefined };
}
