import { usePageState } from "../data/page-state-context.tsx";
import { MESSAGES, type MessageKey } from "./messages.ts";

export type Translate = (key: MessageKey) => string;

export function translatorFor(lang: "zh-CN" | "en"): Translate {
  const messages = MESSAGES[lang];
  return (key) => messages[key];
}

/** The interface string for a key in the page's language. */
export function useT(): Translate {
  return translatorFor(usePageState().lang);
}
