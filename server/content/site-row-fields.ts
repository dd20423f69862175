/**
 * A site file's translations and schedules as database rows and back: a site with neither exports as it did
 * before there were any.
 */
import type { ItemStatus } from "./schema.ts";
import type { SiteFile } from "./site-file.ts";
import { TRANSLATED_COLLECTIONS, TRANSLATED_SETTINGS, type TranslatedEntity } from "./translations.ts";

export interface TranslationRow {
  entity: string;
  id: number;
  lang: string;
  fields: string;
}

export function translationRows(site: SiteFile): TranslationRow[] {
  const rows: TranslationRow[] = [];
  for (const [lang, set] of Object.entries(site.translations ?? {})) {
    for (const name of Object.keys(TRANSLATED_SETTINGS) as (keyof typeof TRANSLATED_SETTINGS)[]) {
      const fields = set[name];
      if (fields) rows.push({ entity: name, id: 0, lang, fields: JSON.stringify(fields) });
    }
    for (const name of Object.keys(TRANSLATED_COLLECTIONS) as (keyof typeof TRANSLATED_COLLECTIONS)[]) {
      for (const { id, ...fields } of set[name] ?? []) rows.push({ entity: name, id, lang, fields: JSON.stringify(fields) });
    }
  }
  return rows;
}

/** In the file's own order; no rows: no `translations` at all, as before there were any. */
export function withTranslations<F extends Record<string, unknown>>(file: F, rows: readonly TranslationRow[]): F {
  if (rows.length === 0) return file;
  const translations: Record<string, Record<string, unknown>> = {};
  for (const lang of [...new Set(rows.map((row) => row.lang))].sort()) {
    const of = (entity: TranslatedEntity) => rows.filter((row) => row.lang === lang && row.entity === entity);
    const set: Record<string, unknown> = {};
    for (const name of Object.keys(TRANSLATED_SETTINGS) as (keyof typeof TRANSLATED_SETTINGS)[]) {
      const row = of(name)[0];
      if (row) set[name] = JSON.parse(row.fields);
    }
    for (const name of Object.keys(TRANSLATED_COLLECTIONS) as (keyof typeof TRANSLATED_COLLECTIONS)[]) {
      const byId = new Map(of(name).map((row) => [Number(row.id), JSON.parse(row.fields) as Record<string, unknown>]));
      if (byId.size === 0) continue;
      const order = ((file[name] as { id: number }[] | undefined) ?? []).map((item) => item.id);
      set[name] = order.filter((id) => byId.has(id)).map((id) => ({ id, ...byId.get(id) }));
    }
    translations[lang] = set;
  }
  return { ...file, translations };
}

export interface ScheduleFields {
  status?: ItemStatus;
  publishAt?: string;
}

export function scheduleColumns({ status, publishAt }: ScheduleFields): { status: ItemStatus; publish_at: number | null } {
  return { status: status ?? "published", publish_at: publishAt === undefined ? null : Date.parse(publishAt) };
}

/** Only what differs from the default, so a site with neither exports as it did before there were any. */
export function withSchedule<T extends { status: ItemStatus; publish_at: number | string | null }>({
  status,
  publish_at,
  ...item
}: T): Omit<T, "status" | "publish_at"> & ScheduleFields {
  return {
    ...item,
    ...(status === "draft" ? { status } : {}),
    ...(publish_at === null ? {} : { publishAt: new Date(Number(publish_at)).toISOString() }),
  };
}
