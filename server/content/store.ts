/** The content API's queries, each returning a call's payload (docs/behaviour.md#calls); a detail is undefined when absent. */
import { type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import type {
  Author,
  ClassifyMenu,
  CompanyIntro,
  Founder,
  HomeHtml,
  Job,
  JobAddr,
  JobKind,
  JobType,
  MenuItem,
  Message,
  MessageKind,
  Milestone,
  Partner,
  Product,
  Service,
  SiteConfig,
  Slide,
} from "../../shared/entities.ts";
import type { Paged, PageQuery } from "../../shared/envelope.ts";
import type { ContentDb } from "./db.ts";
import type { Database, SettingKey } from "./schema.ts";

/** An entity with no id of its own (docs/behaviour.md#entities) still carries the site file's. */
type WithId<T> = T & { id: number };

interface JobQuery extends PageQuery {
  type?: JobKind;
  /** Empty or absent: any. */
  jobTypeIds?: readonly number[];
  jobAddrIds?: readonly number[];
}

/** Who asks (docs/behaviour.md#drafts-and-schedules): a visitor sees what is published and due; a preview, everything. */
export interface Audience {
  preview: boolean;
  nowMs: number;
}

/** For the product, service, message and job tables alike. */
function shownTo(nowMs: number) {
  return sql<SqlBool>`(status = 'published' and (publish_at is null or publish_at <= ${nowMs}))`;
}

/** The earliest `publishAt` still to come of a published item, or undefined: when the site next changes by itself. */
export async function nextPublishAt(content: ContentDb, nowMs: number): Promise<number | undefined> {
  const tables = ["products", "services", "messages", "jobs"] as const;
  const times = await Promise.all(
    tables.map((table) =>
      content.db
        .selectFrom(table)
        .select((eb) => eb.fn.min("publish_at").as("next"))
        .where("status", "=", "published")
        .where("publish_at", ">", nowMs)
        .executeTakeFirst(),
    ),
  );
  const next = times.map((row) => (row?.next == null ? Number.POSITIVE_INFINITY : Number(row.next)));
  const earliest = Math.min(...next);
  return Number.isFinite(earliest) ? earliest : undefined;
}

async function readSetting<T>(content: ContentDb, key: SettingKey): Promise<T | undefined> {
  const row = await content.db.selectFrom("setting").select("value").where("key", "=", key).executeTakeFirst();
  return row ? (JSON.parse(row.value) as T) : undefined;
}

export const getImportMark = async (content: ContentDb) => (await readSetting<{ id: string }>(content, "imported"))?.id;

export const getSiteConfig = (content: ContentDb) => readSetting<SiteConfig>(content, "syscfg");
export const getAuthor = (content: ContentDb) => readSetting<Author>(content, "sysauthor");
export const getHomeHtml = (content: ContentDb) => readSetting<HomeHtml>(content, "indexhtml");
export const getCompanyIntro = (content: ContentDb) => readSetting<CompanyIntro>(content, "company");

export async function getClassifyMenus(content: ContentDb): Promise<ClassifyMenu[]> {
  return (await readSetting<ClassifyMenu[]>(content, "classify")) ?? [];
}

/** Deleted ones included: dropping them is the site's job. */
export function listMenus(content: ContentDb): Promise<MenuItem[]> {
  return content.db
    .selectFrom("menus")
    .select(["id", "pid", "title", "url", "url_type as urlType", "delflag"])
    .orderBy("position")
    .execute();
}

export function listSlides(content: ContentDb): Promise<WithId<Slide>[]> {
  return content.db.selectFrom("slides").select(["id", "title", "url", "img"]).orderBy("position").execute();
}

const productColumns = ["id", "name", "prop_img as propImg", "detail", "type"] as const;

export function listProducts(content: ContentDb, audience: Audience): Promise<Product[]> {
  return content.db
    .selectFrom("products")
    .select(productColumns)
    .$if(!audience.preview, (q) => q.where(shownTo(audience.nowMs)))
    .orderBy("position")
    .execute();
}

export function getProduct(content: ContentDb, id: number, audience: Audience): Promise<Product | undefined> {
  return content.db
    .selectFrom("products")
    .select(productColumns)
    .where("id", "=", id)
    .$if(!audience.preview, (q) => q.where(shownTo(audience.nowMs)))
    .executeTakeFirst();
}

const serviceColumns = ["id", "name", "detail", "type"] as const;

export function listServices(content: ContentDb, audience: Audience): Promise<Service[]> {
  return content.db
    .selectFrom("services")
    .select(serviceColumns)
    .$if(!audience.preview, (q) => q.where(shownTo(audience.nowMs)))
    .orderBy("position")
    .execute();
}

export function getService(content: ContentDb, id: number, audience: Audience): Promise<Service | undefined> {
  return content.db
    .selectFrom("services")
    .select(serviceColumns)
    .where("id", "=", id)
    .$if(!audience.preview, (q) => q.where(shownTo(audience.nowMs)))
    .executeTakeFirst();
}

export async function listMessages(content: ContentDb, kind: MessageKind, page: PageQuery, audience: Audience): Promise<Paged<Message>> {
  const ofKind = content.db
    .selectFrom("messages")
    .where("kind", "=", kind)
    .$if(!audience.preview, (q) => q.where(shownTo(audience.nowMs)));
  return pageOf(
    page,
    ofKind,
    ofKind
      .select(["id", "title", "brief", "img", "date_time as dateTime"])
      .orderBy("date_time", "desc")
      .orderBy("id", "desc")
      .limit(page.pageMaxCount)
      .offset(page.pageIndex * page.pageMaxCount)
      .execute(),
  );
}

export function getMessage(content: ContentDb, kind: MessageKind, id: number, audience: Audience): Promise<Message | undefined> {
  return content.db
    .selectFrom("messages")
    .select(["id", "title", "brief", "img", "date_time as dateTime", "detail"])
    .where("kind", "=", kind)
    .where("id", "=", id)
    .$if(!audience.preview, (q) => q.where(shownTo(audience.nowMs)))
    .executeTakeFirst();
}

export function listPartners(content: ContentDb): Promise<WithId<Partner>[]> {
  return content.db.selectFrom("partners").select(["id", "logo", "url"]).orderBy("position").execute();
}

export function listFounders(content: ContentDb): Promise<WithId<Founder>[]> {
  return content.db.selectFrom("founders").select(["id", "picture", "name", "job", "brief"]).orderBy("position").execute();
}

export function listMilestones(content: ContentDb, page: PageQuery): Promise<Paged<WithId<Milestone>>> {
  const all = content.db.selectFrom("milestones");
  return pageOf(
    page,
    all,
    all
      .select(["id", "date", "brief"])
      .orderBy("date", "desc")
      .orderBy("id", "desc")
      .limit(page.pageMaxCount)
      .offset(page.pageIndex * page.pageMaxCount)
      .execute(),
  );
}

export function listJobTypes(content: ContentDb): Promise<JobType[]> {
  return content.db.selectFrom("job_types").select(["id", "name"]).orderBy("position").execute();
}

export function listJobAddrs(content: ContentDb): Promise<JobAddr[]> {
  return content.db.selectFrom("job_addrs").select(["id", "name"]).orderBy("position").execute();
}

const jobColumns = [
  "id",
  "name",
  "job_addr_id as jobAddrId",
  "job_type_id as jobTypeId",
  "salary",
  "description",
  "requirement",
  "call_hr as callHr",
  "type",
] as const;

export async function listJobs(content: ContentDb, query: JobQuery, audience: Audience): Promise<Paged<Job>> {
  let matching = content.db.selectFrom("jobs").$if(!audience.preview, (q) => q.where(shownTo(audience.nowMs)));
  if (query.type !== undefined) matching = matching.where("type", "=", query.type);
  if (query.jobTypeIds?.length) matching = matching.where("job_type_id", "in", [...query.jobTypeIds]);
  if (query.jobAddrIds?.length) matching = matching.where("job_addr_id", "in", [...query.jobAddrIds]);
  return pageOf(
    query,
    matching,
    matching
      .select(jobColumns)
      .orderBy("id")
      .limit(query.pageMaxCount)
      .offset(query.pageIndex * query.pageMaxCount)
      .execute(),
  );
}

export function getJob(content: ContentDb, id: number, audience: Audience): Promise<Job | undefined> {
  return content.db
    .selectFrom("jobs")
    .select(jobColumns)
    .where("id", "=", id)
    .$if(!audience.preview, (q) => q.where(shownTo(audience.nowMs)))
    .executeTakeFirst();
}

/** One statement, so concurrent calls lose nothing; false when there is no such message a visitor sees. */
export async function incrementReader(content: ContentDb, type: MessageKind, pid: number, nowMs: number): Promise<boolean> {
  const result = await content.db
    .insertInto("readers")
    .columns(["type", "pid", "count"])
    .expression(
      content.db
        // Typed casts: PostgreSQL would read untyped parameters in a select list as text.
        .selectNoFrom((eb) => [
          eb.cast<MessageKind>(eb.val(type), "integer").as("type"),
          eb.cast<number>(eb.val(pid), "bigint").as("pid"),
          eb.cast<number>(eb.val(1), "bigint").as("count"),
        ])
        .where(({ exists, selectFrom }) =>
          exists(selectFrom("messages").select("id").where("kind", "=", type).where("id", "=", pid).where(shownTo(nowMs))),
        ),
    )
    .onConflict((oc) => oc.columns(["type", "pid"]).doUpdateSet((eb) => ({ count: eb(eb.ref("readers.count"), "+", 1) })))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function readerCount(content: ContentDb, type: MessageKind, pid: number): Promise<number> {
  const row = await content.db.selectFrom("readers").select("count").where("type", "=", type).where("pid", "=", pid).executeTakeFirst();
  return row?.count ?? 0;
}

async function pageOf<T, TB extends keyof Database>(
  page: PageQuery,
  matching: SelectQueryBuilder<Database, TB, object>,
  rows: Promise<T[]>,
): Promise<Paged<T>> {
  const [counted, pageDataList] = await Promise.all([
    matching.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
    rows,
  ]);
  // PostgreSQL's count(*) is int8: read as a number by the pool, a string if ever not.
  const totalCount = Number(counted.total);
  return { pageDataList, totalCount, totalPageCount: Math.ceil(totalCount / page.pageMaxCount) };
}
