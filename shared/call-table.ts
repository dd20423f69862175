/** Every upstream call as plain data (docs/behaviour.md#calls): the browser builds its keys from it alone; shared/api-calls.ts adds the server's parsers. */
import { DEFAULT_PAGE_SIZE } from "./params.ts";

export const API_PREFIX = "/api/portal";

export type PayloadKind = "object" | "list" | "paged" | "number";

export type QueryParam = "imgScope" | "pageIndex" | "pageMaxCount" | "jobTypeIds" | "jobAddrIds" | "type" | "pid";

export interface CallParam {
  /** Filled in when absent, so that equal requests share one cache key. */
  fallback?: number;
  required?: boolean;
}

export interface CallEntry {
  id: string;
  /** For cache tags (docs/behaviour.md#cache-tags). */
  tag: string;
  method: "GET" | "PUT";
  path: string;
  payload: PayloadKind;
  query: Partial<Record<QueryParam, CallParam>>;
  detail?: boolean;
  uncached?: boolean;
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

/** Fields that hold HTML in any call's payload (docs/behaviour.md#html-fields). */
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

function findCallEntry(id: string): CallEntry {
  const call = CALL_TABLE.find((c) => c.id === id);
  if (!call) throw new Error(`unknown API call ${id}`);
  return call;
}

/** A fixed path wins over an `{id}` pattern. */
export function getCallOf(key: string): CallEntry | undefined {
  const path = key.split("?")[0] ?? "";
  const gets = CALL_TABLE.filter((c) => c.method === "GET");
  const idOf = (c: CallEntry) => (c.detail && path.startsWith(c.path.slice(0, -4)) ? path.slice(c.path.length - 4) : "");
  return gets.find((c) => c.path === path) ?? gets.find((c) => /^[^/]+$/.test(idOf(c)));
}

export function payloadKindOf(key: string): PayloadKind | undefined {
  return getCallOf(key)?.payload;
}

/** Equals the path plus `normaliseCallQuery`'s search for valid values (a unit test holds them equal). */
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
