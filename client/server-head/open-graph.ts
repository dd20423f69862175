/** Open Graph and Twitter card metas: how the page looks when shared. */
import { toIsoDate } from "../../shared/dates.ts";
import type { Lang } from "../../shared/page-state.ts";
import { escapeHtml } from "./escape-html.ts";

interface OpenGraphInput {
  type: "website" | "article";
  title: string;
  description: string;
  url: string;
  image: string | undefined;
  siteName: string;
  lang: Lang;
  alternateLangs: readonly Lang[];
  published?: string;
}

const LOCALES: Record<Lang, string> = {
  "zh-CN": "zh_CN",
  "zh-TW": "zh_TW",
  en: "en_US",
  ja: "ja_JP",
  ko: "ko_KR",
  es: "es_ES",
  fr: "fr_FR",
  de: "de_DE",
  ru: "ru_RU",
  ar: "ar_AR",
};

export function openGraphTags(input: OpenGraphInput): string[] {
  const property = (name: string, content: string | undefined) =>
    content ? `<meta property="${name}" content="${escapeHtml(content)}">` : "";
  const name = (key: string, content: string | undefined) => (content ? `<meta name="${key}" content="${escapeHtml(content)}">` : "");
  return [
    property("og:type", input.type),
    property("og:title", input.title),
    property("og:description", input.description),
    property("og:url", input.url),
    property("og:image", input.image),
    property("og:site_name", input.siteName),
    property("og:locale", LOCALES[input.lang]),
    ...input.alternateLangs.map((lang) => property("og:locale:alternate", LOCALES[lang])),
    input.type === "article" ? property("article:published_time", toIsoDate(input.published)) : "",
    name("twitter:card", "summary_large_image"),
    name("twitter:title", input.title),
    name("twitter:description", input.description),
    name("twitter:image", input.image),
  ].filter(Boolean);
}
