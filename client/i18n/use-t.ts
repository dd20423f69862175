import { usePageState } from "../data/page-state-context.tsx";
import type { AreaMessages } from "./define-messages.ts";
import { MESSAGES, type MessageKey } from "./messages.ts";

export type Translate<K extends string = MessageKey> = (key: K) => string;

export function translatorFor(lang: "zh-CN" | "en"): Translate {
  const messages = MESSAGES[lang];
  return (key) => messages[key];
}

/**
 * The interface string for a key in the page's language: the strings every page shows,
 * plus, when given, those of the caller's area (imported by the caller, so they load with it).
 */
export function useT(): Translate;
export function useT<K extends string>(area: AreaMessages<K>): Translate<MessageKey | K>;
export function useT(area?: AreaMessages<string>): Translate<string> {
  const lang = usePageState().lang;
  const shared: Record<string, string> = MESSAGES[lang];
  const own = area && (lang === "en" ? area.en : area.zh);
  return (key) => own?.[key] ?? (shared[key] as string);
}
