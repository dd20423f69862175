/**
 * What the server hands the browser with a rendered page: the answers it rendered
 * with (SWR fallback, by key), the keys that failed or named no item, and the public
 * subset of the configuration. Serialised into the page as a JSON data block.
 */
import type { EnquiryFormState } from "./enquiry.ts";
import type { ClassifyMenu } from "./entities.ts";

export type Lang = "zh-CN" | "en";
export const LANGS: readonly Lang[] = ["zh-CN", "en"];
export const LANG_COOKIE = "portal_lang";

/** Only what the browser may know of the server's configuration. */
export interface PublicConfig {
  defaultLang: Lang;
  classify: ClassifyMenu[];
  homeScript: boolean;
  publicOrigin?: string;
}

export interface PageState {
  /** The interface language this page was rendered in. */
  lang: Lang;
  /** True when the language came from the URL (`?lang=`), so links keep it. */
  langInUrl: boolean;
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

export function isLang(value: unknown): value is Lang {
  return value === "zh-CN" || value === "en";
}

/**
 * What the server asks of the page renderer (client/entry-server.tsx): data only. The
 * renderer matches the route itself, from its own copy of the route table.
 */
export interface RenderInput {
  /** The page's address: path under /portal, e.g. /message/news/12 */
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
