/** The embedded content API's translations: the fields that may be translated, and answers in a language (docs/behaviour.md#content-api). */
import { KNOWN_LANGS, type Lang } from "../../shared/langs.ts";
import type { ContentDb } from "./db.ts";

/** Every language but the content's own, Chinese. */
export const TRANSLATION_LANGS = KNOWN_LANGS.filter((lang): lang is Exclude<Lang, "zh-CN"> => lang !== "zh-CN");
export type TranslationLang = Exclude<Lang, "zh-CN">;

/** Each one item, id 0. */
export const TRANSLATED_SETTINGS = {
  syscfg: ["metaKeywords", "metaDescription", "copyright"],
  sysauthor: ["name", "fname", "addr1", "addr2", "addr3", "addr4", "addr5"],
  indexhtml: ["html"],
  company: ["brief"],
} as const;

export const TRANSLATED_COLLECTIONS = {
  menus: ["title"],
  slides: ["title"],
  products: ["name", "detail"],
  services: ["name", "detail"],
  news: ["title", "brief", "detail"],
  notices: ["title", "brief", "detail"],
  founders: ["name", "job", "brief"],
  milestones: ["brief"],
  jobTypes: ["name"],
  jobAddrs: ["name"],
  jobs: ["name", "salary", "description", "requirement", "callHr"],
} as const;

export type TranslatedEntity = keyof typeof TRANSLATED_SETTINGS | keyof typeof TRANSLATED_COLLECTIONS;

const UNTRANSLATED = { lang: "zh-CN" } as const;

type Item = Record<string, unknown>;

const isItem = (value: unknown): value is Item => value !== null && typeof value === "object" && !Array.isArray(value);

async function translationsOf(
  content: ContentDb,
  entity: TranslatedEntity,
  lang: TranslationLang,
  ids: number[],
): Promise<Map<number, Item>> {
  if (ids.length === 0) return new Map();
  const rows = await content.db
    .selectFrom("translations")
    .select(["id", "fields"])
    .where("entity", "=", entity)
    .where("lang", "=", lang)
    .where("id", "in", [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [Number(row.id), JSON.parse(row.fields) as Item]));
}

function inLang(item: Item, translation: Item | undefined): Item {
  return translation ? { ...item, ...translation } : { ...item, ...UNTRANSLATED };
}

/** An item, a list or a paged list, matched to translations by `id` (a setting is item 0). */
export async function translatePayload(
  content: ContentDb,
  entity: TranslatedEntity,
  lang: TranslationLang,
  payload: unknown,
): Promise<unknown> {
  if (entity in TRANSLATED_SETTINGS) {
    if (!isItem(payload)) return payload;
    return inLang(payload, (await translationsOf(content, entity, lang, [0])).get(0));
  }
  const paged = isItem(payload) && Array.isArray(payload.pageDataList);
  const list = paged ? ((payload as Item).pageDataList as unknown[]) : Array.isArray(payload) ? payload : isItem(payload) ? [payload] : [];
  const items = list.filter(isItem);
  const found = await translationsOf(
    content,
    entity,
    lang,
    items.map((item) => Number(item.id)).filter((id) => Number.isSafeInteger(id)),
  );
  const translated = list.map((item) => (isItem(item) ? inLang(item, found.get(Number(item.id))) : item));
  if (paged) return { ...(payload as Item), pageDataList: translated };
  return Array.isArray(payload) ? translated : translated[0];
}
