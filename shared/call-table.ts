/**
 * Every upstream call the site makes (docs/behaviour.md#calls) as plain data: id, method, path
 * relative to /api/portal, payload kind, and the query parameters each takes with their
 * defaults. The browser builds its fetch keys from this table alone; the BFF's validation
 * (shared/api-calls.ts) adds a parser per parameter on top of it, so the browser never
 * downloads code only the server runs.
 */
import { DEFAULT_PAGE_SIZE } from "./params.ts";

export const API_PREFIX = "/api/portal";

/** How a missing or null `data` reads: `{}` for an object call, `[]` for a list call. */
export type PayloadKind = "object" | "list" | "paged" | "number";

export type QueryParam = "imgScope" | "pageIndex" | "pageMaxCount" | "jobTypeIds" | "jobAddrIds" | "type" | "pid";

export interface CallParam {
  /** Filled in when absent, so that equal requests share one cache key. */
  fallback?: number;
  required?: boolean;
}

export interface CallEntry {
  id: string;
  /**
   * What its answers are about, for cache tags (docs/behaviour.md#cache-tags): a detail call's
   * answer is tagged `tag:id`, a list's `tag:list`, a single record's `tag` itself; each also
   * carries `tag`.
   */
  tag: string;
  method: "GET" | "PUT";
  /** Path under /api/portal; `{id}` stands for one id segment. */
  path: string;
  payload: PayloadKind;
  query: Partial<Record<QueryParam, CallParam>>;
  /** A detail call: a 404 or an empty payload means "no such item". */
  detail?: boolean;
  /** Never cached: every request is answered by the upstream (a reader count changes with each visit). */
  uncached?: boolean;
  /** Fields that hold HTML in this call's payload only, beside `HTML_FIELDS`. */
  html?: readonly string[];
}

const imgScope = { imgScope: { fallback: 0 } };
const paging = { pageIndex: { fallback: 0 }, pageMaxCount: { fallback: DEFAULT_PAGE_SIZE } };

const get = (
  id: string,
  tag: string,
  path: string,
  payload: PayloadKind,
  query: CallEntry["query"] = {},
  html?: readonly string[],
): CallEntry => ({
  id,
  tag,
  method: "GET",
  path,
  payload,
  query,
  detail: path.endsWith("{id}"),
  ...(html ? { html } : {}),
});

/**
 * Fields that hold HTML wherever they appear, in any call's payload and at any depth (item
 * details and job texts); the server sanitises them, and a call's own `html` fields, when
 * an answer enters its cache. Other text is rendered as text.
 */
export const HTML_FIELDS: readonly string[] = ["detail", "description", "requirement", "callHr"];

export const CALL_TABLE: readonly CallEntry[] = [
  get("syscfg", "site", "/sys/syscfg", "object", imgScope),
  get("sysauthor", "site", "/sys/sysauthor", "object", imgScope),
  get("menuList", "menu", "/sys/menu/list", "list"),
  get("indexHtml", "home", "/sys/indexhtml", "object", {}, ["html"]),
  get("slideList", "slide", "/message/indexslide/list", "list"),
  get("productList", "product", "/product/product/list", "list"),
  get("product", "product", "/product/product/{id}", "object"),
  get("serviceList", "service", "/service/service/list", "list"),
  get("service", "service", "/service/service/{id}", "object"),
  get("newsList", "news", "/message/news/list", "paged", paging),
  get("news", "news", "/message/news/{id}", "object"),
  get("noticeList", "notice", "/message/notice/list", "paged", paging),
  get("notice", "notice", "/message/notice/{id}", "object"),
  get("partnerList", "partner", "/crm/partner/list", "list"),
  get("company", "company", "/plan/company", "object", {}, ["brief"]),
  get("founderList", "founder", "/plan/member/joblevel/1/list", "list"),
  get("milestoneList", "milestone", "/plan/milepost/list", "paged", paging),
  get("jobTypeList", "jobtype", "/job/jobtype/list", "list"),
  get("jobAddrList", "jobaddr", "/job/jobaddr/list", "list"),
  get("jobList", "job", "/job/job/list", "paged", { ...paging, jobTypeIds: {}, jobAddrIds: {}, type: {} }),
  get("job", "job", "/job/job/{id}", "object"),
  { ...get("readerCount", "reader", "/reader/reader", "number", { type: { required: true }, pid: { required: true } }), uncached: true },
  { id: "readerPut", tag: "reader", method: "PUT", path: "/reader/reader", payload: "object", query: {}, uncached: true },
];

export function findCallEntry(id: string): CallEntry {
  const call = CALL_TABLE.find((c) => c.id === id);
  if (!call) throw new Error(`unknown API call ${id}`);
  return call;
}

/** The GET call of a key (a call path, with or without its query); a fixed path wins over an `{id}` pattern. */
export function getCallOf(key: string): CallEntry | undefined {
  const path = key.split("?")[0] ?? "";
  const gets = CALL_TABLE.filter((c) => c.method === "GET");
  const idOf = (c: CallEntry) => (c.detail && path.startsWith(c.path.slice(0, -4)) ? path.slice(c.path.length - 4) : "");
  return gets.find((c) => c.path === path) ?? gets.find((c) => /^[^/]+$/.test(idOf(c)));
}

/** The payload kind of a GET key. */
export function payloadKindOf(key: string): PayloadKind | undefined {
  return getCallOf(key)?.payload;
}

/**
 * The key of a call: its path with `{id}` filled, and its query with defaults filled,
 * empty values dropped and parameters sorted by name. For valid values it equals the
 * path plus `normaliseCallQuery`'s search, the form the BFF caches under (a unit test
 * holds them equal); the values are the caller's to get right.
 */
export function callKey(callId: string, options: { id?: number; query?: Record<string, string | number | undefined> } = {}): string {
  const call = findCallEntry(callId);
  const pairs: string[][] = [];
  for (const name of Object.keys(call.query).sort() as QueryParam[]) {
    const given = options.query?.[name];
    const value = given === undefined || given === "" ? call.query[name]?.fallback : given;
    if (value === undefined) {
      if (call.query[name]?.required) throw new Error(`bad query for ${callId}: ${name} is required`);
      continue;
    }
    pairs.push([name, String(value)]);
  }
  const path = options.id === undefined ? call.path : call.path.replace("{id}", String(options.id));
  return pairs.length ? `${path}?${new URLSearchParams(pairs)}` : path;
}
