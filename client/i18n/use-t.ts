import { usePageState } from "../data/page-state-context.tsx";
import { englishMessages, type MessageKey, SHARED_MESSAGES } from "./messages.ts";

export type Translate<K extends string = MessageKey> = (key: K) => string;

function translator(lang: "zh-CN" | "en", area?: Record<string, string>): Translate<string> {
  const shared: Record<string, string> = SHARED_MESSAGES;
  // Chinese stands in for a language whose strings are not loaded (`loadMessages` comes first).
  const english = lang === "en" ? englishMessages() : undefined;
  return (key) => english?.[key] ?? area?.[key] ?? (shared[key] as string);
}

export function translatorFor(lang: "zh-CN" | "en"): Translate {
  return translator(lang);
}

/**
 * The interface string for a key in the page's language: the strings every page shows,
 * plus, when given, those of the caller's area (imported by the caller, so they load with it).
 */
export function useT(): Translate;
export function useT<K extends string>(area: Record<K, string>): Translate<MessageKey | K>;
export function useT(area?: Record<string, string>): Translate<string> {
  return translator(usePageState().lang, area);
}
