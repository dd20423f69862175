/**
 * The interface in each of the ten languages: every language has every string the Chinese built in has, with
 * the same placeholders, and a count in every plural form its language's rules pick (Intl.PluralRules).
 */
import { describe, expect, it } from "vitest";
import { loadMessages, messagesOf } from "../../client/i18n/messages.ts";
import { COMMON_MESSAGES } from "../../client/i18n/messages-common.ts";
import { FOOTER_MESSAGES } from "../../client/i18n/messages-footer.ts";
import { HEADER_MESSAGES } from "../../client/i18n/messages-header.ts";
import { HOME_MESSAGES } from "../../client/i18n/messages-home.ts";
import { PAGES_MESSAGES } from "../../client/i18n/messages-pages.ts";
import { SEARCH_MESSAGES } from "../../client/i18n/messages-search.ts";
import { SHELL_MESSAGES } from "../../client/i18n/messages-shell.ts";
import type { Message } from "../../client/i18n/plural.ts";
import { translatorFor } from "../../client/i18n/use-t.ts";
import { KNOWN_LANGS } from "../../shared/langs.ts";

const CHINESE: Record<string, Message> = {
  ...COMMON_MESSAGES,
  ...SHELL_MESSAGES,
  ...FOOTER_MESSAGES,
  ...HEADER_MESSAGES,
  ...HOME_MESSAGES,
  ...PAGES_MESSAGES,
  ...SEARCH_MESSAGES,
};

const placeholders = (message: Message) =>
  [...new Set((typeof message === "string" ? [message] : Object.values(message)).flatMap((text) => text.match(/\{\w+\}/g) ?? []))].sort();

const others = KNOWN_LANGS.filter((lang) => lang !== "zh-CN");

describe("the interface strings", () => {
  it.each(others)("has every string in %s, with the Chinese one's placeholders", async (lang) => {
    await loadMessages(lang);
    const strings = messagesOf(lang) as Record<string, Message>;
    expect(Object.keys(strings).sort()).toEqual(Object.keys(CHINESE).sort());
    for (const [key, message] of Object.entries(strings)) {
      // A count's forms may leave {n} out ("one item"); every other placeholder is there.
      const wanted = placeholders(CHINESE[key] as Message).filter((p) => typeof message === "string" || p !== "{n}");
      expect(placeholders(message), `${lang} ${key}`).toEqual(expect.arrayContaining(wanted));
      if (typeof message === "string") expect(message.trim() === "" && key !== "pages.list.jumpUnit", `${lang} ${key}`).toBe(false);
    }
  });

  it.each(others)("has a form for every count in %s", async (lang) => {
    await loadMessages(lang);
    const rules = new Intl.PluralRules(lang);
    for (const message of Object.values(messagesOf(lang) as Record<string, Message>)) {
      if (typeof message === "string") continue;
      for (const category of rules.resolvedOptions().pluralCategories) expect(message, `${lang} ${category}`).toHaveProperty(category);
    }
  });

  it("counts in each language's own forms", async () => {
    await Promise.all(["ru", "ar", "fr"].map((lang) => loadMessages(lang as "ru")));
    const ru = translatorFor("ru", PAGES_MESSAGES);
    expect([1, 3, 5, 21].map((n) => ru.count("pages.message.readers", n))).toEqual([
      "1 просмотр",
      "3 просмотра",
      "5 просмотров",
      "21 просмотр",
    ]);
    const ar = translatorFor("ar", PAGES_MESSAGES);
    expect([0, 1, 2, 3, 11].map((n) => ar.count("pages.list.total", n))).toEqual([
      "لا توجد عناصر",
      "عنصر واحد",
      "عنصران",
      "3 عناصر",
      "11 عنصرًا",
    ]);
    // French counts 0 as singular.
    expect(translatorFor("fr", PAGES_MESSAGES).count("pages.list.total", 0)).toBe("0 élément");
  });
});
