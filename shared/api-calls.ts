/** The server's view of the call table: a parser per query parameter (docs/behaviour.md#bad-input). */
import { CALL_TABLE, type CallEntry, type CallParam, type PayloadKind, type QueryParam } from "./call-table.ts";
import { MAX_PAGE_INDEX, MAX_PAGE_SIZE, type ParamResult, parseId, parseIdList, parseIntegerParam, parseOneOf } from "./params.ts";

export { API_PREFIX } from "./call-table.ts";
export type { PayloadKind, QueryParam };

interface ParamSpec extends CallParam {
  parse: (raw: string | undefined) => ParamResult<number | number[]>;
}

/** A name means the same thing on every call that takes it. */
const PARSERS: Record<QueryParam, ParamSpec["parse"]> = {
  imgScope: (raw) => parseIntegerParam("imgScope", raw, 0, 9),
  pageIndex: (raw) => parseIntegerParam("pageIndex", raw, 0, MAX_PAGE_INDEX),
  pageMaxCount: (raw) => parseIntegerParam("pageMaxCount", raw, 1, MAX_PAGE_SIZE),
  jobTypeIds: (raw) => parseIdList("jobTypeIds", raw),
  jobAddrIds: (raw) => parseIdList("jobAddrIds", raw),
  type: (raw) => parseOneOf("type", raw, [1, 2] as const),
  pid: (raw) => parseId("pid", raw),
};

export interface ApiCall extends Omit<CallEntry, "query"> {
  query: Partial<Record<QueryParam, ParamSpec>>;
}

export const API_CALLS: readonly ApiCall[] = CALL_TABLE.map((entry) => ({
  ...entry,
  query: Object.fromEntries(
    Object.entries(entry.query).map(([name, param]) => [name, { ...param, parse: PARSERS[name as QueryParam] }]),
  ) as ApiCall["query"],
}));

export interface MatchedCall {
  call: ApiCall;
  rawId?: string;
}

const ID_SEGMENT = /^[^/]+$/;

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
      if (!API_CALLS.some((other) => other.path === path)) found.push({ call, rawId });
    }
  }
  return found;
}

type NormalisedQuery = { ok: true; search: string } | { ok: false; error: string };

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

export function callPath(call: ApiCall, id?: number): string {
  return id === undefined ? call.path : call.path.replace("{id}", String(id));
}
