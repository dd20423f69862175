/**
 * The site file: all the embedded content API's content as one JSON document, parsed
 * strictly (docs/operations.md, "Content export and import"; the demo site is content/site.json).
 */
import { z } from "zod";
import { TRANSLATED_COLLECTIONS, TRANSLATION_LANGS } from "./translations.ts";

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const text = z.string().max(1_000_000);
const shortText = z.string().max(2000);
const digits = (length: number) => z.string().regex(new RegExp(`^\\d{${length}}$`), `must be ${length} digits`);

const siteConfig = z.strictObject({
  ico: shortText,
  metaKeywords: shortText,
  metaDescription: shortText,
  baiduVerify: shortText,
  so360Verify: shortText,
  tencentVerify: shortText,
  googleVerify: shortText,
  themePortal: z.string().regex(/^\d*,\d*$/, 'must be "theme,layout", e.g. "1,2"'),
  copyright: shortText,
  record: shortText,
  edi: shortText,
  policeRecord: shortText.optional(),
});

/** qq1..qq5 and the like: five optional numbered fields, typed by name. */
const numbered = <P extends string>(prefix: P) => {
  const optional = shortText.optional();
  return {
    [`${prefix}1`]: optional,
    [`${prefix}2`]: optional,
    [`${prefix}3`]: optional,
    [`${prefix}4`]: optional,
    [`${prefix}5`]: optional,
  } as Record<`${P}${1 | 2 | 3 | 4 | 5}`, typeof optional>;
};

const author = z.strictObject({
  name: shortText,
  fname: shortText,
  logo: shortText,
  phone: shortText,
  email: shortText,
  ...numbered("qq"),
  ...numbered("wx"),
  ...numbered("addr"),
  ...numbered("qrcode"),
});

const classifyMenu = z.strictObject({
  menuId: id,
  api: z.string().regex(/^\/api\/portal\/[A-Za-z0-9/_.-]+$/, "must be a GET path under /api/portal"),
  path: z.string().regex(/^\/[A-Za-z0-9/_.-]*$/, "must be a page path such as /product"),
});

const menuItem = z.strictObject({
  id,
  pid: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  title: shortText,
  url: shortText,
  urlType: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  delflag: z.number().int().min(0).max(1),
});

/** Date.parse takes 2026-02-30 for 2 March: the day must exist in its month. */
function isRealInstant(raw: string): boolean {
  const [y, mo, d, h, mi] = raw.slice(0, 16).split(/\D/).map(Number) as [number, number, number, number, number];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCMonth() === mo - 1 && day.getUTCDate() === d && h < 24 && mi < 60 && !Number.isNaN(Date.parse(raw));
}

/** An instant with its offset, e.g. 2026-12-01T09:00:00+08:00 (exported in UTC). */
const instant = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/,
    "must be an ISO 8601 date and time with its offset, such as 2026-12-01T09:00:00+08:00",
  )
  .refine(isRealInstant, "is not a real date and time");
/** docs/behaviour.md#drafts-and-schedules: absent, an item is published at once. */
const schedule = {
  status: z.enum(["published", "draft"], "must be published or draft").optional(),
  publishAt: instant.optional(),
};

const slide = z.strictObject({ id, title: shortText, url: shortText, img: shortText });
const product = z.strictObject({ id, name: shortText, propImg: shortText, detail: text, type: z.number().int().min(0), ...schedule });
const service = z.strictObject({ id, name: shortText, detail: text, type: z.number().int().min(0), ...schedule });
const message = z.strictObject({
  id,
  title: shortText,
  brief: text,
  img: shortText,
  dateTime: digits(14),
  detail: text,
  ...schedule,
});
const partner = z.strictObject({ id, logo: shortText, url: shortText });
const founder = z.strictObject({ id, picture: shortText, name: shortText, job: shortText, brief: text });
const milestone = z.strictObject({ id, date: digits(6), brief: text });
const named = z.strictObject({ id, name: shortText });
const job = z.strictObject({
  id,
  type: z.union([z.literal(1), z.literal(2)]),
  name: shortText,
  jobAddrId: id,
  jobTypeId: id,
  salary: shortText,
  description: text,
  requirement: text,
  callHr: text,
  ...schedule,
});
const reader = z.strictObject({
  type: z.union([z.literal(1), z.literal(2)]),
  pid: id,
  count: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

/** Optional, so files from before translations still import. */
const tr = text.optional();
const itemTranslation = <Shape extends Record<string, typeof tr>>(shape: Shape) => z.array(z.strictObject({ id, ...shape })).optional();
const translationSet = z.strictObject({
  syscfg: z.strictObject({ metaKeywords: tr, metaDescription: tr, copyright: tr }).optional(),
  sysauthor: z.strictObject({ name: tr, fname: tr, addr1: tr, addr2: tr, addr3: tr, addr4: tr, addr5: tr }).optional(),
  indexhtml: z.strictObject({ html: tr }).optional(),
  company: z.strictObject({ brief: tr }).optional(),
  menus: itemTranslation({ title: tr }),
  slides: itemTranslation({ title: tr }),
  products: itemTranslation({ name: tr, detail: tr }),
  services: itemTranslation({ name: tr, detail: tr }),
  news: itemTranslation({ title: tr, brief: tr, detail: tr }),
  notices: itemTranslation({ title: tr, brief: tr, detail: tr }),
  founders: itemTranslation({ name: tr, job: tr, brief: tr }),
  milestones: itemTranslation({ brief: tr }),
  jobTypes: itemTranslation({ name: tr }),
  jobAddrs: itemTranslation({ name: tr }),
  jobs: itemTranslation({ name: tr, salary: tr, description: tr, requirement: tr, callHr: tr }),
});

/**
 * Keyed by language: a key the site cannot store is named, with the ones it can (a bare
 * enum key would only say "Unrecognized key").
 */
const translations = z
  .record(z.string(), z.unknown())
  .superRefine((sets, ctx) => {
    for (const lang of Object.keys(sets)) {
      if (!(TRANSLATION_LANGS as readonly string[]).includes(lang))
        ctx.addIssue({
          code: "custom",
          path: [lang],
          message: `a site cannot store translations into "${lang}": only into ${TRANSLATION_LANGS.slice(0, -1).join(", ")} or ${TRANSLATION_LANGS.at(-1)} (zh-CN is the items' own language)`,
        });
    }
  })
  .pipe(z.partialRecord(z.enum(TRANSLATION_LANGS), translationSet));

export const SITE_FILE_VERSION = 1;

const siteFileSchema = z
  .strictObject({
    version: z.literal(SITE_FILE_VERSION),
    syscfg: siteConfig,
    sysauthor: author,
    indexhtml: z.strictObject({ html: text }),
    company: z.strictObject({ brief: text }),
    classify: z.array(classifyMenu),
    menus: z.array(menuItem),
    slides: z.array(slide),
    products: z.array(product),
    services: z.array(service),
    news: z.array(message),
    notices: z.array(message),
    partners: z.array(partner),
    founders: z.array(founder),
    milestones: z.array(milestone),
    jobTypes: z.array(named),
    jobAddrs: z.array(named),
    jobs: z.array(job),
    readers: z.array(reader),
    translations: translations.optional(),
  })
  .superRefine((site, ctx) => {
    const collections = [
      "menus",
      "slides",
      "products",
      "services",
      "news",
      "notices",
      "partners",
      "founders",
      "milestones",
      "jobTypes",
      "jobAddrs",
      "jobs",
    ] as const;
    for (const key of collections) {
      const seen = new Set<number>();
      site[key].forEach((item, index) => {
        if (seen.has(item.id)) ctx.addIssue({ code: "custom", path: [key, index, "id"], message: `duplicate id ${item.id}` });
        seen.add(item.id);
      });
    }
    const typeIds = new Set(site.jobTypes.map((t) => t.id));
    const addrIds = new Set(site.jobAddrs.map((a) => a.id));
    site.jobs.forEach((j, index) => {
      if (!typeIds.has(j.jobTypeId))
        ctx.addIssue({ code: "custom", path: ["jobs", index, "jobTypeId"], message: `no job type ${j.jobTypeId}` });
      if (!addrIds.has(j.jobAddrId))
        ctx.addIssue({ code: "custom", path: ["jobs", index, "jobAddrId"], message: `no job address ${j.jobAddrId}` });
    });
    for (const [lang, set] of Object.entries(site.translations ?? {})) {
      for (const key of Object.keys(TRANSLATED_COLLECTIONS) as (keyof typeof TRANSLATED_COLLECTIONS)[]) {
        const ids = new Set(site[key].map((item) => item.id));
        const seen = new Set<number>();
        (set[key] ?? []).forEach((item, index) => {
          const path = ["translations", lang, key, index, "id"];
          if (!ids.has(item.id)) ctx.addIssue({ code: "custom", path, message: `no ${key} item ${item.id} to translate` });
          else if (seen.has(item.id)) ctx.addIssue({ code: "custom", path, message: `duplicate translation of ${item.id}` });
          seen.add(item.id);
        });
      }
    }
    const readerKeys = new Set<string>();
    site.readers.forEach((r, index) => {
      const key = `${r.type}:${r.pid}`;
      if (readerKeys.has(key)) ctx.addIssue({ code: "custom", path: ["readers", index], message: `duplicate reader record ${key}` });
      readerKeys.add(key);
    });
  });

export type SiteFile = z.infer<typeof siteFileSchema>;

type SiteFileResult = { ok: true; site: SiteFile } | { ok: false; error: string };

/** On failure names the first bad field, e.g. `news[3].dateTime: must be 14 digits`. */
export function parseSiteFile(json: unknown): SiteFileResult {
  // Checked first: a newer format may differ anywhere, and its first unknown field would say less than its version.
  const version = typeof json === "object" && json !== null ? (json as { version?: unknown }).version : undefined;
  if (typeof version === "number" && version > SITE_FILE_VERSION) {
    return {
      ok: false,
      error: `version: the file is format ${version}, newer than the ${SITE_FILE_VERSION} this Portal reads; import it with a newer Portal`,
    };
  }
  const parsed = siteFileSchema.safeParse(json);
  if (parsed.success) return { ok: true, site: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.reduce<string>(
    (acc, part) => (typeof part === "number" ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)),
    "",
  );
  return { ok: false, error: `${where || "(root)"}: ${issue?.message ?? "invalid"}` };
}
