/**
 * The languages the site can speak: those its interface is translated into, their address tags and
 * writing direction (own names: lang-names.ts; docs/behaviour.md#languages). Which of them a site speaks is `PORTAL_LANGS`: site-langs.ts.
 */
export const KNOWN_LANGS = ["zh-CN", "zh-TW", "en", "ja", "ko", "es", "fr", "de", "ru", "ar"] as const;

export type Lang = (typeof KNOWN_LANGS)[number];

/** Scripts written right to left; only Arabic has interface strings today, the others are ready for theirs. */
const RTL = new Set(["ar", "he", "fa", "ur"]);

export const dirOf = (lang: string): "rtl" | "ltr" => (RTL.has(lang.split("-")[0] as string) ? "rtl" : "ltr");

/** A language's segment in an address: its tag in lower case (`/zh-tw/`). */
export const addressTag = (lang: Lang): string => lang.toLowerCase();

const BY_LOWER = new Map<string, Lang>(KNOWN_LANGS.map((lang) => [lang.toLowerCase(), lang]));

/** A tag as written anywhere (`ZH-tw`, `ja`), as the language it names; undefined for a language without strings. */
export const knownLangOf = (tag: string): Lang | undefined => BY_LOWER.get(tag.toLowerCase());
