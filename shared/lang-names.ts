/** Each language in its own name, as the switch lists it: a module of its own, so that only the switch's code, loaded after the page starts, carries the names. */
import type { Lang } from "./langs.ts";

export const LANG_NAMES: Readonly<Record<Lang, string>> = {
  "zh-CN": "简体中文",
  "zh-TW": "繁體中文",
  en: "English",
  ja: "日本語",
  ko: "한국어",
  es: "Español",
  fr: "Français",
  de: "Deutsch",
  ru: "Русский",
  ar: "العربية",
};
