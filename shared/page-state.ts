/**
 * What the server hands the browser with a rendered page: the answers it rendered
 * with (SWR fallback, by key), the keys that failed or named no item, and the public
 * subset of the configuration. Serialised into the page as a JSON data block.
 */
import type { EnquiryFormState } from "./enquiry.ts";
import type { ClassifyMenu } from "./entities.ts";

export type Lang = "zh-CN" | "en";
export const LANGS: readonly Lang[] = ["zh-CN", "en"];

/** Only what the browser may know of the server's configuration. */
export interface PublicConfig {
  defaultLang: Lang;
  /** The upstream is asked for content in the page's language (CONTENT_LANG_PARAM): else every item is Chinese. */
  contentLang: boolean;
  classify: ClassifyMenu[];
  homeScript: boolean;
  publicOrigin?: string;
}

export interface PageState {
  /** The language of this page (its address says it: docs/behaviour.md#languages). */
  lang: Lang;
  /**
   * The page has a version in each language whose content is in that language (its
   * hreflang set): false for an item with no translation, and for every page when
   * content is not asked for by language.
   */
  translated: boolean;
  config: PublicConfig;
  /** Payloads by key (call path relative to /api/portal plus normalised query); null for a detail that names no item. */
  fallback: Record<string, unknown>;
  /** Keys whose call failed on the server, with the status the page was given. */
  failures: Record<string, 502 | 504>;
  /** The contact form's token, and after a refused post its values and mistakes (pages rendered per request only). */
  form?: EnquiryFormState;
}

export const STATE_ELEMENT_ID = "portal-state";

/** JSON safe inside a <script type="application/json"> element: nothing can close it or open a comment. */
export function serialiseState(state: PageState): string {
  return JSON.stringify(state)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** The language a page asks the upstream for its content in: its own, when content comes by language at all. */
export function contentLangOf(lang: Lang, config: Pick<PublicConfig, "contentLang">): Lang {
  return lang === "en" && config.contentLang ? "en" : "zh-CN";
}

/** An item the upstream answered in Chinese for an English request carries this (CONTRACT: `"lang": "zh-CN"`). */
export function isUntranslated(item: unknown): boolean {
  return item !== null && typeof item === "object" && (item as { lang?: unknown }).lang === "zh-CN";
}

export function isLang(value: unknown): value is Lang {
  return value === "zh-CN" || value === "en";
}

/**
 * What the server asks of the page renderer (client/entry-server.tsx): data only. The
 * renderer matches the route itself, from its own copy of the route table.
 */
export interface RenderInput {
  /** The page's address: path under /portal in its language, e.g. /message/news/12, /en/message/news/12 */
  path: string;
  /** The address's query, without "?". */
  search: string;
  state: PageState;
}

export interface RenderResult {
  appHtml: string;
  /** Tags for <head>: title, metas, links. */
  head: string;
  /** Source modules (paths from the project folder) the browser loads before hydrating, beside the entry. */
  modules: string[];
}
