/** Interface strings that hold a count, in the CLDR plural forms Intl.PluralRules picks; Chinese has one form. */
import type { Lang } from "../../shared/page-state.ts";
import { fill } from "./fill.ts";

type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

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

export function countText(message: Message, n: number, lang: Lang): string {
  const template = typeof message === "string" ? message : (message[rulesFor(lang).select(n)] ?? message.other);
  return fill(template, { n });
}

/** A plural message without a count reads as its `other` form. */
export const plainText = (message: Message): string => (typeof message === "string" ? message : message.other);
