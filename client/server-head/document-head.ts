/**
 * The <head> of a server-rendered page (docs/behaviour.md#page-head). Server-only: a client
 * navigation keeps the first page's head but its title.
 */

import { absoluteUrl } from "../../shared/absolute-url.ts";
import { keys } from "../../shared/data-keys.ts";
import type { Author, Message, SiteConfig } from "../../shared/entities.ts";
import { FEEDS, feedHref } from "../../shared/feeds.ts";
import { imageUrl, isImageSource } from "../../shared/image-url.ts";
import { contentLangOfPage, type Lang, type PageState, versionsOf } from "../../shared/page-state.ts";
import { pageTitle } from "../../shared/page-titles.ts";
import type { RouteMatch } from "../../shared/routes.ts";
import { baseLang } from "../../shared/site-langs.ts";
import { textOf } from "../data/content-values.ts";
import type { Translate } from "../i18n/use-t.ts";
import { documentTitle, type ReadPayload } from "../page-title.ts";
import { escapeHtml } from "./escape-html.ts";
import { openGraphTags } from "./open-graph.ts";
import { detailItem, isNotFound, pageDescription, pageImage } from "./page-meta.ts";
import { canonicalPath } from "./seo-urls.ts";
import { jsonLdScript, structuredData } from "./structured-data.ts";

export { escapeHtml };

const VERIFY_METAS: [keyof SiteConfig, string][] = [
  ["baiduVerify", "baidu-site-verification"],
  ["so360Verify", "360-site-verification"],
  ["tencentVerify", "sogou_site_verification"],
  ["googleVerify", "google-site-verification"],
];

function themeColorOf(config: SiteConfig | undefined): string {
  return textOf(config?.themePortal).split(",")[0]?.trim() === "2" ? "#000000" : "#ffffff";
}

/** Browsers show a favicon at 16 to 32 px; 64 covers 2x screens. */
const FAVICON_WIDTH = 64;

interface HeadInput {
  match: RouteMatch | null;
  search: string;
  state: PageState;
}

export function documentHead({ match, search, state }: HeadInput, t: Translate): string {
  const read: ReadPayload = <T>(key: string) => (state.fallback[key] ?? undefined) as T | undefined;
  const config = read<SiteConfig>(keys.syscfg());
  const meta = (name: string, content: unknown) =>
    textOf(content) ? `<meta name="${name}" content="${escapeHtml(textOf(content))}">` : "";
  const notFound = isNotFound(match, state.fallback);
  const title = documentTitle(match, read, t, state.lang, notFound);
  const description = pageDescription(match, read);
  const ico = textOf(config?.ico);
  const tags = [
    `<title>${escapeHtml(title)}</title>`,
    meta("description", description),
    meta("keywords", config?.metaKeywords),
    ...VERIFY_METAS.map(([field, name]) => meta(name, config?.[field])),
    meta("theme-color", themeColorOf(config)),
    isImageSource(ico) ? `<link rel="icon" href="${escapeHtml(imageUrl(ico, FAVICON_WIDTH))}">` : "",
    ...(notFound || !match || match.route.unlisted
      ? [meta("robots", "noindex")]
      : searchTags({ match, query: new URLSearchParams(search), state, read, title, description })),
  ];
  return tags.filter(Boolean).join("\n    ");
}

interface SearchTagsInput {
  match: RouteMatch;
  query: URLSearchParams;
  state: PageState;
  read: ReadPayload;
  title: string;
  description: string;
}

function searchTags({ match, query, state, read, title, description }: SearchTagsInput): string[] {
  const contentLang = contentLangOfPage(state);
  const path = canonicalPath(match, query, read, contentLang);
  if (!path) return [];
  const origin = state.config.publicOrigin;
  const url = (lang: Lang) => escapeHtml(absoluteUrl(origin, canonicalPath(match, query, read, lang) ?? path));
  const canonical = absoluteUrl(origin, path);
  // Only a page shown in its own language, with a version in another, has alternates: every version there is.
  const versions = contentLang === state.lang ? versionsOf(state) : [];
  const xDefault = versions.includes(state.config.defaultLang) ? state.config.defaultLang : baseLang();
  const alternates =
    versions.length > 1
      ? [
          ...versions.map((lang) => `<link rel="alternate" hreflang="${lang}" href="${url(lang)}">`),
          `<link rel="alternate" hreflang="x-default" href="${url(xDefault)}">`,
        ]
      : [];
  const author = read<Author>(keys.sysauthor());
  const image = pageImage(match, read, origin);
  const item = detailItem(match, read) as Partial<Message> | undefined;
  const article = match.route.detail?.kind === "message";
  const feeds = (match.route.feeds ?? []).map(
    (kind) =>
      `<link rel="alternate" type="application/rss+xml" title="${escapeHtml([textOf(author?.name), pageTitle(FEEDS[kind].list, state.lang)].filter(Boolean).join(" - "))}" href="${feedHref(kind, state.lang)}">`,
  );
  return [
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    ...alternates,
    ...feeds,
    ...openGraphTags({
      type: article ? "article" : "website",
      title,
      description,
      url: canonical,
      image,
      siteName: textOf(author?.name) || textOf(author?.fname),
      lang: contentLang,
      alternateLangs: versions.length > 1 ? versions.filter((lang) => lang !== contentLang) : [],
      published: article ? item?.dateTime : undefined,
    }),
    ...structuredData({ match, read, lang: state.lang, contentLang, origin, canonical, path, image, title, description }).map(jsonLdScript),
  ];
}
