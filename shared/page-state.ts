/** What the server hands the browser with a rendered page, as a JSON block (docs/behaviour.md#page-data). */
import type { EnquiryFormState } from "./enquiry.ts";
import type { ClassifyMenu } from "./entities.ts";

export type Lang = "zh-CN" | "en";
export const LANGS: readonly Lang[] = ["zh-CN", "en"];

export interface PublicConfig {
  defaultLang: Lang;
  contentLang: boolean;
  classify: ClassifyMenu[];
  homeScript: boolean;
  publicOrigin?: string;
  /** Set only when true: in WeChat's browser the page configures its JS-SDK for share cards. */
  wechat?: true;
}

export interface PageState {
  lang: Lang;
  /** Its hreflang set: false for an item with no translation (docs/behaviour.md#languages). */
  translated: boolean;
  config: PublicConfig;
  /** Null for a detail that names no item. */
  fallback: Record<string, unknown>;
  failures: Record<string, 502 | 504>;
  form?: EnquiryFormState;
  /** An editor's preview (docs/behaviour.md#preview): drafts shown, a banner with its exit, data read past the caches. */
  preview?: true;
}

export const STATE_ELEMENT_ID = "portal-state";

/** Nothing in it can close the <script> element or open a comment. */
export function serialiseState(state: PageState): string {
  return JSON.stringify(state)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export function contentLangOf(lang: Lang, config: Pick<PublicConfig, "contentLang">): Lang {
  return lang === "en" && config.contentLang ? "en" : "zh-CN";
}

export function isUntranslated(item: unknown): boolean {
  return item !== null && typeof item === "object" && (item as { lang?: unknown }).lang === "zh-CN";
}

export function isLang(value: unknown): value is Lang {
  return value === "zh-CN" || value === "en";
}

/** The renderer matches the route itself, from its own copy of the route table. */
export interface RenderInput {
  path: string;
  search: string;
  state: PageState;
}

export interface RenderResult {
  appHtml: string;
  head: string;
  /** Source files the browser loads before hydrating, preloaded beside the entry. */
  modules: string[];
}
