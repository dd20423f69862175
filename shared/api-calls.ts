/**
 * Every upstream call the site makes (CONTRACT section 3), paths relative to /api/portal.
 * The BFF answers exactly these (plus the configured classify paths); the client builds
 * its fetch keys from the same table.
 */
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_INDEX,
  MAX_PAGE_SIZE,
  type ParamResult,
  parseId,
  parseIdList,
  parseIntegerParam,
  parseOneOf,
} from "./params.ts";

export const API_PREFIX = "/api/portal";

/** How a missing or null `data` reads: `{}` for an object call, `[]` for a list call. */
export type PayloadKind = "object" | "list" | "paged" | "number";

export type QueryParam = "imgScope" | "pageIndex" | "pageMaxCount" | "jobTypeIds" | "jobAddrIds" | "type" | "pid";

interface ParamSpec {
  parse: (raw: string | undefined) => ParamResult<number | number[]>;
  /** Filled in when absent, so that equal requests share one cache key. */
  fallback?: number;
  required?: boolean;
}

const imgScope: ParamSpec = { parse: (raw) => parseIntegerParam("imgScope", raw, 0, 9), fallback: 0 };
const pageIndex: ParamSpec = { parse: (raw) => parseIntegerParam("pageIndex", raw, 0, MAX_PAGE_INDEX), fallback: 0 };
const pageMaxCount: ParamSpec = {
  parse: (raw) => parseIntegerParam("pageMaxCount", raw, 1, MAX_PAGE_SIZE),
  fallback: DEFAULT_PAGE_SIZE,
};
const paging = { pageIndex, pageMaxCount };

export interface ApiCall {
  id: string;
  method: "GET" | "PUT";
  /** Path under /api/portal; `{id}` stands for one id segment. */
  path: string;
  payload: PayloadKind;
  query: Partial<Record<QueryParam, ParamSpec>>;
  /** A detail call: a 404 or an empty payload means "no such item". */
  detail?: boolean;
}

const get = (id: string, path: string, payload: PayloadKind, query: ApiCall["query"] = {}): ApiCall => ({
  id,
  method: "GET",
  path,
  payload,
  query,
  detail: path.endsWith("{id}"),
});

export const API_CALLS: readonly ApiCall[] = [
  get("syscfg", "/sys/syscfg", "object", { imgScope }),
  get("sysauthor", "/sys/sysauthor", "object", { imgScope }),
  get("menuList", "/sys/menu/list", "list"),
  get("indexHtml", "/sys/indexhtml", "object"),
  get("slideList", "/message/indexslide/list", "list"),
  get("productList", "/product/product/list", "list"),
  get("product", "/product/product/{id}", "object"),
  get("serviceList", "/service/service/list", "list"),
  get("service", "/service/service/{id}", "object"),
  get("newsList", "/message/news/list", "paged", paging),
  get("news", "/message/news/{id}", "object"),
  get("noticeList", "/message/notice/list", "paged", paging),
  get("notice", "/message/notice/{id}", "object"),
  get("partnerList", "/crm/partner/list", "list"),
  get("company", "/plan/company", "object"),
  get("founderList", "/plan/member/joblevel/1/list", "list"),
  get("milestoneList", "/plan/milepost/list", "paged", paging),
  get("jobTypeList", "/job/jobtype/list", "list"),
  get("jobAddrList", "/job/jobaddr/list", "list"),
  get("jobList", "/job/job/list", "paged", {
    ...paging,
    jobTypeIds: { parse: (raw) => parseIdList("jobTypeIds", raw) },
    jobAddrIds: { parse: (raw) => parseIdList("jobAddrIds", raw) },
    type: { parse: (raw) => parseOneOf("type", raw, [1, 2] as const) },
  }),
  get("job", "/job/job/{id}", "object"),
  get("readerCount", "/reader/reader", "number", {
    type: { parse: (raw) => parseOneOf("type", raw, [1, 2] as const), required: true },
    pid: { parse: (raw) => parseId("pid", raw), required: true },
  }),
  { id: "readerPut", method: "PUT", path: "/reader/reader", payload: "object", query: {} },
];

export type ApiCallId = (typeof API_CALLS)[number]["id"];

export interface MatchedCall {
  call: ApiCall;
  /** The `{id}` segment, still raw: validated by `normaliseCallQuery`'s caller. */
  rawId?: string;
}

const ID_SEGMENT = /^[^/]+$/;

/** The call a path (relative to /api/portal) names, for a method-agnostic lookup. */
export function matchCalls(path: string): MatchedCall[] {
  const found: MatchedCall[] = [];
  for (const call of API_CALLS) {
    if (!call.path.endsWith("{id}")) {
      if (call.path === path) found.push({ call });
      continue;
    }
    const prefix = call.path.slice(0, -"{id}".length);
    if (path.startsWith(prefix) && ID_SEGMENT.test(path.slice(prefix.length))) {
      const rawId = path.slice(prefix.length);
      // A fixed path (".../list") wins over the `{id}` pattern.
      if (!API_CALLS.some((other) => other.path === path)) found.push({ call, rawId });
    }
  }
  return found;
}

export type NormalisedQuery = { ok: true; search: string } | { ok: false; error: string };

/**
 * The query a call takes, validated, with defaults filled, sorted by key and
 * serialised: unknown parameters are dropped, an empty value counts as absent.
 */
export function normaliseCallQuery(call: ApiCall, query: URLSearchParams): NormalisedQuery {
  const pairs: [string, string][] = [];
  for (const name of Object.keys(call.query).sort() as QueryParam[]) {
    const spec = call.query[name] as ParamSpec;
    const all = query.getAll(name);
    if (all.length > 1) return { ok: false, error: `${name} is given more than once` };
    const parsed = spec.parse(all[0]);
    if (!parsed.ok) return parsed;
    const value = parsed.value ?? spec.fallback;
    if (value === undefined) {
      if (spec.required) return { ok: false, error: `${name} is required` };
      continue;
    }
    pairs.push([name, Array.isArray(value) ? value.join(",") : String(value)]);
  }
  return { ok: true, search: pairs.length ? `?${new URLSearchParams(pairs).toString()}` : "" };
}

/** The concrete path of a call, for the client and the server-side data loader. */
export function callPath(call: ApiCall, id?: number): string {
  return id === undefined ? call.path : call.path.replace("{id}", String(id));
}

export function findCall(id: string): ApiCall {
  const call = API_CALLS.find((c) => c.id === id);
  if (!call) throw new Error(`unknown API call ${id}`);
  return call;
}
