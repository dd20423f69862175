/** The site's languages and how the content API is asked for one (docs/behaviour.md#languages). */

import { z } from "zod";
import { KNOWN_LANGS, knownLangOf, type Lang } from "../../shared/langs.ts";
import { DEFAULT_SITE_LANGS } from "../../shared/site-langs.ts";
import { ConfigError, shownValue } from "./config-error.ts";
import { queryParamName } from "./value-kinds.ts";

/** The query parameter the embedded content API reads a language from. */
export const EMBEDDED_LANG_PARAM = "lang";

/**
 * Languages by their tags in any case (`zh-TW`, `zh-tw`), blanks around each ignored: only those the interface is
 * translated into, each once. An empty entry (`zh-CN,,en`) stops startup rather than be dropped: it is more likely a
 * language left out by mistake than a stray comma.
 */
const langList = z.string().transform((raw, ctx) => {
  const langs: Lang[] = [];
  for (const tag of raw.split(",").map((part) => part.trim())) {
    if (tag === "") {
      ctx.addIssue({ code: "custom", message: "has an empty entry: give the tags joined by commas, such as zh-CN,en" });
      return z.NEVER;
    }
    const lang = knownLangOf(tag);
    if (!lang) {
      ctx.addIssue({
        code: "custom",
        message: `names "${tag}", a language without interface strings (there are ${KNOWN_LANGS.join(", ")})`,
      });
      return z.NEVER;
    }
    if (langs.includes(lang)) {
      ctx.addIssue({ code: "custom", message: `names ${lang} twice` });
      return z.NEVER;
    }
    langs.push(lang);
  }
  return langs;
});

export const langsEnv = z.object({
  PORTAL_LANGS: langList.optional(),
  PORTAL_LANG: z.string().trim().optional(),
  CONTENT_LANG_PARAM: queryParamName().optional(),
});

export interface LangsConfig {
  /** Where the site's entry points lead, and x-default: one of `langs`. */
  lang: Lang;
  /** The site's languages, the first the content's own, unprefixed (docs/behaviour.md#languages). */
  langs: Lang[];
  /** Undefined: content comes in Chinese only. */
  contentLangParam?: string;
}

/** The embedded API (no API_BASE_URL) reads its own parameter unless another is named. */
export function langsSettings(e: z.output<typeof langsEnv> & { API_BASE_URL?: string }): LangsConfig {
  const langs = e.PORTAL_LANGS ?? [...DEFAULT_SITE_LANGS];
  const lang = e.PORTAL_LANG === undefined ? langs[0] : langs.find((one) => one === knownLangOf(e.PORTAL_LANG as string));
  if (!lang) {
    const choices = langs.length === 1 ? langs[0] : `${langs.slice(0, -1).join(", ")} or ${langs.at(-1)}`;
    throw new ConfigError(`PORTAL_LANG must be ${choices} (a language of PORTAL_LANGS)${shownValue("PORTAL_LANG", e.PORTAL_LANG)}`);
  }
  return {
    lang,
    langs,
    contentLangParam: e.CONTENT_LANG_PARAM ?? (e.API_BASE_URL === undefined ? EMBEDDED_LANG_PARAM : undefined),
  };
}
