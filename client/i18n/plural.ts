/**
 * Interface strings that hold a count. English needs "1 item" and "2 items"; the forms a
 * language needs are its CLDR plural categories, which Intl.PluralRules picks for a count.
 * Chinese has one form for every count, so its strings stay plain.
 */
import type { Lang } from "../../shared/page-state.ts";
import { fill } from "./fill.ts";

/** One template per plural category the language uses; `other` is always there. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** A message: a plain template, or, for a count, its plural forms. */
export type Message = string | PluralForms;

const rules = new Map<Lang, Intl.PluralRules>();

function rulesFor(lang: Lang): Intl.PluralRules {
  let found = rules.get(lang);
  if (!found) {
    found = new Intl.PluralRules(lang);
    rules.set(lang, found);
  }
  return found;
}

/** The message for the count `n`, with `{n}` filled in. */
export function countText(message: Message, n: number, lang: Lang): string {
  const template = typeof message === "string" ? message : (message[rulesFor(lang).select(n)] ?? message.other);
  return fill(template, { n });
}

/** The message without a count: a plural one reads as its `other` form. */
export const plainText = (message: Message): string => (typeof message === "string" ? message : message.other);
