/** The upstream's JSON envelope, also ours for errors (docs/behaviour.md#envelope). */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

export interface Paged<T> {
  pageDataList: T[];
  totalCount: number;
  totalPageCount: number;
}

export interface PageQuery {
  pageIndex: number;
  pageMaxCount: number;
}

export function errorEnvelope(code: number, msg: string): Envelope<null> {
  return { code, msg, data: null };
}

function emptyPaged<T>(): Paged<T> {
  return { pageDataList: [], totalCount: 0, totalPageCount: 0 };
}

export function payloadOf<T>(envelope: { data?: unknown }, kind: "object" | "list" | "paged" | "number"): T {
  const data = envelope.data;
  if (data !== null && data !== undefined) return data as T;
  if (kind === "list") return [] as T;
  if (kind === "paged") return emptyPaged() as T;
  if (kind === "number") return 0 as T;
  return {} as T;
}

/** Null, missing, or an empty object: no such item. */
export function isEmptyPayload(data: unknown): boolean {
  return data === null || data === undefined || (typeof data === "object" && !Array.isArray(data) && Object.keys(data).length === 0);
}
