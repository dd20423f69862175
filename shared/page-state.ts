/** What the server hands the browser with a rendered page, as a JSON block (docs/behaviour.md#page-data). */
import type { EnquiryFormState } from "./enquiry.ts";
import type { ClassifyMenu } from "./entities.ts";
import type { Lang } from "./langs.ts";
import { baseLang, siteLangs } from "./site-langs.ts";

export type { Lang } from "./langs.ts";

export interface PublicConfig {
  defaultLang: Lang;
  /** The site's languages (`PORTAL_LANGS`), left out when they are the two of shared/site-langs.ts's default. */
  langs?: Lang[];
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
  /** With more than two languages: every language the page's item exists in (docs/behaviour.md#languages). */
  versions?: Lang[];
  config: PublicConfig;
  /** Null for a detail that names no item. */
  fallback: Record<string, unknown>;
  failures: Record<string, 502 | 504>;
  form?: EnquiryFormState;
  /** An editor's preview (docs/behaviour.md#preview): drafts shown, a banner with its exit, data read past the caches. */
  preview?: true;
}

export const STATE_ELEMENT_ID = "portal-state";

/** What JSON inside a script element must not hold as it is: `</script>`, `<!--`, and JavaScript's line ends. */
const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;
const ESCAPED: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** Nothing in it can close the <script> element or open a comment; one pass over JSON of tens of kB, not one per character. */
export function serialiseState(state: PageState): string {
  return JSON.stringify(state).replace(UNSAFE_IN_SCRIPT, (c) => ESCAPED[c] as string);
}

export function contentLangOf(lang: Lang, config: Pick<PublicConfig, "contentLang">): Lang {
  return config.contentLang ? lang : baseLang();
}

/** Every language the page's item exists in: listed with more than two languages, else all or none (`translated`). */
export function versionsOf(state: Pick<PageState, "translated" | "versions">): readonly Lang[] {
  return state.versions ?? (state.translated ? siteLangs() : []);
}

/** The language a page's content is in: its own where the item exists in it, else the content's own language. */
export function contentLangOfPage(state: Pick<PageState, "lang" | "translated" | "versions">): Lang {
  return state.lang === baseLang() || versionsOf(state).includes(state.lang) ? state.lang : baseLang();
}

/**
 * The upstream's stand-in for an item it has no translation of: the item in the content's own language, saying so.
 * A `lang` that is no tag at all (null, a number, an object, an array) claims no translation either.
 */
export function isUntranslated(item: unknown): boolean {
  if (item === null || typeof item !== "object") return false;
  const { lang } = item as { lang?: unknown };
  return lang !== undefined && (typeof lang !== "string" || lang === baseLang());
}

/** The renderer matches the route itself, from its own copy of the route table. */
export interface RenderInput {
  path: string;
  search: string;
  state: PageState;
}

export interface RenderResult {
  /** The app's HTML in pieces, in order: the server writes them into the page's bytes as they are, never joined first. */
  appHtml: readonly string[];
  head: string;
  /** Source files the browser loads before hydrating, preloaded beside the entry. */
  modules: string[];
  /** The header and footer: how many were kept ones spliced in, how many rendered in place (docs/architecture.md#reused-parts). */
  parts: PartsUsed;
}

export interface PartsUsed {
  kept: number;
  inPlace: number;
}
