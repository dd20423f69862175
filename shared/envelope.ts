/** Every upstream JSON body and every JSON error of ours has this shape (docs/behaviour.md#envelope). */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** A paged payload; `pageIndex` is 0-based everywhere, `pageMaxCount` is the page size. */
export interface Paged<T> {
  pageDataList: T[];
  totalCount: number;
  totalPageCount: number;
}

export interface PageQuery {
  pageIndex: number;
  pageMaxCount: number;
}

/** Our own error answers: the envelope with a non-zero code and no data. */
export function errorEnvelope(code: number, msg: string): Envelope<null> {
  return { code, msg, data: null };
}

export function emptyPaged<T>(): Paged<T> {
  return { pageDataList: [], totalCount: 0, totalPageCount: 0 };
}

/** The payload of a successful envelope, with a missing or null `data` read as `{}` or `[]`. */
export function payloadOf<T>(envelope: { data?: unknown }, kind: "object" | "list" | "paged" | "number"): T {
  const data = envelope.data;
  if (data !== null && data !== undefined) return data as T;
  if (kind === "list") return [] as T;
  if (kind === "paged") return emptyPaged() as T;
  if (kind === "number") return 0 as T;
  return {} as T;
}

/** True for a detail payload that means "no such item": null, missing, or an empty object. */
export function isEmptyPayload(data: unknown): boolean {
  return data === null || data === undefined || (typeof data === "object" && !Array.isArray(data) && Object.keys(data).length === 0);
}
