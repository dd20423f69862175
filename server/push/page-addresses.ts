/**
 * Which public page addresses an item has: its detail page in each language it exists in,
 * in canonical form (docs/behaviour.md#telling-search-engines).
 */
import type { Lang } from "../../shared/page-state.ts";
import { pageHref } from "../../shared/routes.ts";
import type { SearchType } from "../../shared/search.ts";
import { baseLang } from "../../shared/site-langs.ts";

export type ItemType = SearchType;

export interface ItemRef {
  type: ItemType;
  id: number;
}

/** An item as it stands: its canonical detail page (a job's kind decides it) and the languages it is translated into. */
export interface ItemVersions extends ItemRef {
  /** 1 experienced hires, 2 campus: a job's own kind. */
  jobKind?: number;
  /** Beside the content's own language, which it always exists in. */
  langs: readonly Lang[];
}

const ID = "([1-9]\\d{0,15})";
/** Any language's prefix (`/en`, `/zh-tw`), as addresses write it: a purge may name a page in any of them. */
const LANG = "(?:/[a-z]{2}(?:-[a-z]{2})?)?";
const ITEM_PATHS: [RegExp, (m: RegExpExecArray) => ItemType][] = [
  [new RegExp(`^/portal${LANG}/message/(news|notice)/${ID}$`), (m) => m[1] as ItemType],
  [new RegExp(`^/portal${LANG}/(product|service)/${ID}$`), (m) => m[1] as ItemType],
  [new RegExp(`^/portal${LANG}/job/(?:society|school)/${ID}$`), () => "job"],
  [new RegExp(`^/api/portal/message/(news|notice)/${ID}$`), (m) => m[1] as ItemType],
  [new RegExp(`^/api/portal/(product|service)/\\1/${ID}$`), (m) => m[1] as ItemType],
  [new RegExp(`^/api/portal/job/job/${ID}$`), () => "job"],
];
const ITEM_TAG = new RegExp(`^(news|notice|product|service|job):${ID}$`);

/** The item a purged path names (a detail page in either language, or its API call), if any. */
export function itemOfPath(path: string): ItemRef | undefined {
  const bare = path.split("?")[0] as string;
  for (const [pattern, typeOf] of ITEM_PATHS) {
    const m = pattern.exec(bare);
    if (m) return { type: typeOf(m), id: Number(m[m.length - 1]) };
  }
  return undefined;
}

/** The item a purged tag names (`news:12`); a list's or a kind's tag names none. */
export function itemOfTag(tag: string): ItemRef | undefined {
  const m = ITEM_TAG.exec(tag);
  return m ? { type: m[1] as ItemType, id: Number(m[2]) } : undefined;
}

const DETAIL_PAGE = {
  news: "newsDetail",
  notice: "noticeDetail",
  product: "productDetail",
  service: "serviceDetail",
} as const;

function detailHref(item: ItemVersions, lang: Lang): string {
  if (item.type === "job") return pageHref(item.jobKind === 2 ? "jobSchoolDetail" : "jobSocietyDetail", item.id, lang);
  return pageHref(DETAIL_PAGE[item.type], item.id, lang);
}

/** The page in the content's own language, and one in each language the item is translated into: an untranslated item's other pages are not canonical. */
export function addressesOf(item: ItemVersions): string[] {
  return [detailHref(item, baseLang()), ...item.langs.filter((lang) => lang !== baseLang()).map((lang) => detailHref(item, lang))];
}

/** A gone job's kind is not known: both its pages answer not found, and both are named. */
export function addressesOfGone(item: ItemRef): string[] {
  if (item.type !== "job") return addressesOf({ ...item, langs: [] });
  return [...addressesOf({ ...item, jobKind: 1, langs: [] }), ...addressesOf({ ...item, jobKind: 2, langs: [] })];
}
