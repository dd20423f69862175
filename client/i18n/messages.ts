/**
 * The interface strings (and the page names, shared/page-titles.ts). Chinese is built in, each area's in its own module; every other language is one
 * module (`messages-<tag>.ts`) loaded only for a page in that language, typed to have exactly the Chinese keys,
 * so a page's browser never receives the strings of a language it does not show.
 */
import type { Lang } from "../../shared/page-state.ts";
import type { PageTitles } from "../../shared/page-titles/table.ts";
import { addPageTitles } from "../../shared/page-titles.ts";
import { COMMON_MESSAGES } from "./messages-common.ts";
import { SHELL_MESSAGES } from "./messages-shell.ts";
import type { Message } from "./plural.ts";

export const SHARED_MESSAGES = { ...COMMON_MESSAGES, ...SHELL_MESSAGES };

export type MessageKey = keyof typeof SHARED_MESSAGES;

type Strings = Record<string, Message>;
type Loader = () => Promise<{ MESSAGES: Strings; TITLES?: PageTitles }>;

/** One dynamic import each: the bundler makes each language a file of its own. */
const LOADERS: Record<Exclude<Lang, "zh-CN">, Loader> = {
  "zh-TW": () => import("./messages-zh-tw.ts"),
  en: () => import("./messages-en.ts"),
  ja: () => import("./messages-ja.ts"),
  ko: () => import("./messages-ko.ts"),
  es: () => import("./messages-es.ts"),
  fr: () => import("./messages-fr.ts"),
  de: () => import("./messages-de.ts"),
  ru: () => import("./messages-ru.ts"),
  ar: () => import("./messages-ar.ts"),
};

/** The source file of a language's strings, which a page preloads; undefined for Chinese, built in. */
export const messagesFile = (lang: Lang): string | undefined =>
  lang === "zh-CN" ? undefined : `client/i18n/messages-${lang.toLowerCase()}.ts`;

const loaded = new Map<Lang, Strings>();
const loading = new Map<Lang, Promise<void>>();

/** The server and the browser both wait for it before their first render in that language. */
export function loadMessages(lang: Lang): Promise<void> {
  const loader = lang === "zh-CN" ? undefined : LOADERS[lang];
  if (!loader || loaded.has(lang)) return Promise.resolve();
  let pending = loading.get(lang);
  if (!pending) {
    pending = loader().then(
      (module) => {
        if (module.TITLES) addPageTitles(lang, module.TITLES);
        loaded.set(lang, module.MESSAGES);
      },
      (error: unknown) => {
        loading.delete(lang);
        throw error;
      },
    );
    loading.set(lang, pending);
  }
  return pending;
}

export const messagesOf = (lang: Lang): Strings | undefined => loaded.get(lang);

/** Chinese needs no load; any other language once its module is in. */
export const hasMessages = (lang: Lang): boolean => lang === "zh-CN" || loaded.has(lang);
