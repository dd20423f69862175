/** Every upstream JSON body and every JSON error of ours has this shape (CONTRACT section 2). */
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
