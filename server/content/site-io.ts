/**
 * A whole site between the database and a site file: an import replaces everything in one
 * transaction; export → import → export is byte-identical.
 */
import { randomUUID } from "node:crypto";
import type { Insertable, Transaction } from "kysely";
import { MESSAGE_KIND, type MessageKind } from "../../shared/entities.ts";
import type { ContentDb } from "./db.ts";
import type { Database, SettingKey } from "./schema.ts";
import { SITE_FILE_VERSION, type SiteFile } from "./site-file.ts";
import { scheduleColumns, translationRows, withSchedule, withTranslations } from "./site-row-fields.ts";
import { readSiteFile, validateSite } from "./site-text.ts";

const MAX_PARAMS_PER_INSERT = 900;

const SETTING_KEYS = ["syscfg", "sysauthor", "indexhtml", "company", "classify"] as const satisfies readonly SettingKey[];

/** Children first: the order they are emptied. */
const CONTENT_TABLES = [
  "translations",
  "readers",
  "jobs",
  "job_addrs",
  "job_types",
  "milestones",
  "founders",
  "partners",
  "messages",
  "services",
  "products",
  "slides",
  "menus",
  "setting",
] as const satisfies readonly (keyof Database)[];

/** The site is validated again: it may come from untyped JSON. */
export async function importSite(content: ContentDb, site: SiteFile): Promise<void> {
  const valid = validateSite(site);
  await content.db.transaction().execute(async (trx) => {
    for (const table of CONTENT_TABLES) await trx.deleteFrom(table).execute();
    await insertRows(trx, "setting", [
      ...SETTING_KEYS.map((key) => ({ key, value: JSON.stringify(valid[key]) })),
      { key: "imported" as const, value: JSON.stringify({ id: randomUUID(), at: new Date().toISOString() }) },
    ]);
    await insertRows(
      trx,
      "menus",
      valid.menus.map(({ urlType, ...m }, position) => ({ ...m, url_type: urlType, position })),
    );
    await insertRows(
      trx,
      "slides",
      valid.slides.map((s, position) => ({ ...s, position })),
    );
    await insertRows(
      trx,
      "products",
      valid.products.map(({ propImg, status, publishAt, ...p }, position) => ({
        ...p,
        prop_img: propImg,
        position,
        ...scheduleColumns({ status, publishAt }),
      })),
    );
    await insertRows(
      trx,
      "services",
      valid.services.map(({ status, publishAt, ...s }, position) => ({ ...s, position, ...scheduleColumns({ status, publishAt }) })),
    );
    await insertRows(trx, "messages", [...messageRows(valid.news, MESSAGE_KIND.news), ...messageRows(valid.notices, MESSAGE_KIND.notice)]);
    await insertRows(
      trx,
      "partners",
      valid.partners.map((p, position) => ({ ...p, position })),
    );
    await insertRows(
      trx,
      "founders",
      valid.founders.map((f, position) => ({ ...f, position })),
    );
    await insertRows(
      trx,
      "milestones",
      valid.milestones.map((m, position) => ({ ...m, position })),
    );
    await insertRows(
      trx,
      "job_types",
      valid.jobTypes.map((t, position) => ({ ...t, position })),
    );
    await insertRows(
      trx,
      "job_addrs",
      valid.jobAddrs.map((a, position) => ({ ...a, position })),
    );
    await insertRows(
      trx,
      "jobs",
      valid.jobs.map(({ jobAddrId, jobTypeId, callHr, status, publishAt, ...j }, position) => ({
        ...j,
        job_addr_id: jobAddrId,
        job_type_id: jobTypeId,
        call_hr: callHr,
        position,
        ...scheduleColumns({ status, publishAt }),
      })),
    );
    await insertRows(trx, "translations", translationRows(valid));
    // A reader PUT racing this import may already have recreated a row: the file wins.
    for (const chunk of chunksOf(valid.readers, 3)) {
      await trx
        .insertInto("readers")
        .values(chunk)
        .onConflict((oc) => oc.columns(["type", "pid"]).doUpdateSet((eb) => ({ count: eb.ref("excluded.count") })))
        .execute();
    }
  });
}

/** Throws when the database holds no site. */
export async function exportSite(content: ContentDb): Promise<SiteFile> {
  // One snapshot, so a write landing mid-export cannot tear the file.
  const site = await content.db
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (trx) => {
      const settings = new Map(
        (await trx.selectFrom("setting").select(["key", "value"]).execute()).map((row) => [row.key, JSON.parse(row.value) as unknown]),
      );
      if (!settings.has("syscfg")) throw new Error("the database holds no site yet: import one first");
      const translations = await trx.selectFrom("translations").select(["entity", "id", "lang", "fields"]).execute();
      const messages = (kind: MessageKind) =>
        trx
          .selectFrom("messages")
          .select(["id", "title", "brief", "img", "date_time as dateTime", "detail", "status", "publish_at"])
          .where("kind", "=", kind)
          .orderBy("position")
          .execute()
          .then((rows) => rows.map(withSchedule));
      // Keys in site-file order, which is the order the JSON gets.
      const file = {
        version: SITE_FILE_VERSION,
        syscfg: settings.get("syscfg"),
        sysauthor: settings.get("sysauthor"),
        indexhtml: settings.get("indexhtml"),
        company: settings.get("company"),
        classify: settings.get("classify"),
        menus: await trx
          .selectFrom("menus")
          .select(["id", "pid", "title", "url", "url_type as urlType", "delflag"])
          .orderBy("position")
          .execute(),
        slides: await trx.selectFrom("slides").select(["id", "title", "url", "img"]).orderBy("position").execute(),
        products: await trx
          .selectFrom("products")
          .select(["id", "name", "prop_img as propImg", "detail", "type", "status", "publish_at"])
          .orderBy("position")
          .execute()
          .then((rows) => rows.map(withSchedule)),
        services: await trx
          .selectFrom("services")
          .select(["id", "name", "detail", "type", "status", "publish_at"])
          .orderBy("position")
          .execute()
          .then((rows) => rows.map(withSchedule)),
        news: await messages(MESSAGE_KIND.news),
        notices: await messages(MESSAGE_KIND.notice),
        partners: await trx.selectFrom("partners").select(["id", "logo", "url"]).orderBy("position").execute(),
        founders: await trx.selectFrom("founders").select(["id", "picture", "name", "job", "brief"]).orderBy("position").execute(),
        milestones: await trx.selectFrom("milestones").select(["id", "date", "brief"]).orderBy("position").execute(),
        jobTypes: await trx.selectFrom("job_types").select(["id", "name"]).orderBy("position").execute(),
        jobAddrs: await trx.selectFrom("job_addrs").select(["id", "name"]).orderBy("position").execute(),
        jobs: await trx
          .selectFrom("jobs")
          .select([
            "id",
            "type",
            "name",
            "job_addr_id as jobAddrId",
            "job_type_id as jobTypeId",
            "salary",
            "description",
            "requirement",
            "call_hr as callHr",
            "status",
            "publish_at",
          ])
          .orderBy("position")
          .execute()
          .then((rows) => rows.map(withSchedule)),
        readers: await trx.selectFrom("readers").select(["type", "pid", "count"]).orderBy("type").orderBy("pid").execute(),
      };
      return withTranslations(file, translations);
    });
  // Validating what we write keeps every exported file importable.
  try {
    return validateSite(site);
  } catch (error) {
    throw new Error(`the stored content is not a valid site: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function loadSiteIfEmpty(content: ContentDb, siteFilePath: string): Promise<boolean> {
  if (await hasSite(content)) return false;
  await importSite(content, await readSiteFile(siteFilePath));
  return true;
}

export async function hasSite(content: ContentDb): Promise<boolean> {
  const row = await content.db.selectFrom("setting").select("key").where("key", "=", "syscfg").executeTakeFirst();
  return row !== undefined;
}

function messageRows(messages: SiteFile["news"], kind: MessageKind): Insertable<Database["messages"]>[] {
  return messages.map(({ dateTime, status, publishAt, ...m }, position) => ({
    ...m,
    date_time: dateTime,
    kind,
    position,
    ...scheduleColumns({ status, publishAt }),
  }));
}

async function insertRows<T extends keyof Database>(trx: Transaction<Database>, table: T, rows: Insertable<Database[T]>[]): Promise<void> {
  const first = rows[0];
  if (!first) return;
  for (const chunk of chunksOf(rows, Object.keys(first).length)) {
    await trx.insertInto(table).values(chunk).execute();
  }
}

function chunksOf<T>(rows: readonly T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMS_PER_INSERT / columns));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}
