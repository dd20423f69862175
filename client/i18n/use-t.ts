import type { Lang } from "../../shared/page-state.ts";
import { usePageState } from "../data/page-state-context.tsx";
import { type MessageKey, messagesOf, SHARED_MESSAGES } from "./messages.ts";
import { countText, type Message, plainText } from "./plural.ts";

export interface Translate<K extends string = MessageKey> {
  (key: K): string;
  count(key: K, n: number): string;
}

function translator(lang: Lang, area?: Record<string, Message>): Translate<string> {
  const shared: Record<string, Message> = SHARED_MESSAGES;
  // Chinese stands in for a language whose strings are not loaded (`loadMessages` comes first).
  const own = messagesOf(lang);
  const message = (key: string) => own?.[key] ?? area?.[key] ?? (shared[key] as Message);
  const t = (key: string) => plainText(message(key));
  t.count = (key: string, n: number) => countText(message(key), n, lang);
  return t;
}

export function translatorFor(lang: Lang): Translate;
export function translatorFor<K extends string>(lang: Lang, area: Record<K, string>): Translate<MessageKey | K>;
export function translatorFor(lang: Lang, area?: Record<string, string>): Translate<string> {
  return translator(lang, area);
}

/** An area's strings are imported by the caller, so they load with its code. */
export function useT(): Translate;
export function useT<K extends string>(area: Record<K, string>): Translate<MessageKey | K>;
export function useT(area?: Record<string, string>): Translate<string> {
  return translator(usePageState().lang, area);
}
