/** The sitemap's and feeds' reads, through the same API cache as the pages (in-process, no HTTP request to ourselves). */
import { type Paged, payloadOf } from "../../shared/envelope.ts";
import { apiKey, keyInLang } from "../../shared/page-data.ts";
import type { Lang } from "../../shared/page-state.ts";
import { baseLang } from "../../shared/site-langs.ts";
import type { ApiReader } from "../api-proxy/api-reader.ts";
import { jsonOf } from "../cache/response-cache.ts";

export function readerInLang(reader: ApiReader, lang: Lang): ApiReader {
  return lang === baseLang() ? reader : { ...reader, get: (key, requestId) => reader.get(keyInLang(key, lang), requestId) };
}

/** Throws when the call failed or did not answer code 0. */
export async function readPayload<T>(reader: ApiReader, key: string, kind: "object" | "list" | "paged"): Promise<T> {
  const { value: answer } = await reader.get(key);
  const envelope = jsonOf(answer) as { code?: number; data?: unknown } | null;
  if (answer.status !== 200 || envelope?.code !== 0) throw new Error(`${key} answered ${answer.status} code ${envelope?.code}`);
  return payloadOf<T>(envelope, kind);
}

const LIST_PAGE_SIZE = 100;

export async function readAllPages<T>(
  reader: ApiReader,
  callId: string,
  query: Record<string, number> = {},
  maxItems = 50_000,
): Promise<{ items: T[]; truncated: boolean }> {
  const keyOf = (pageIndex: number) => apiKey(callId, { query: { ...query, pageIndex, pageMaxCount: LIST_PAGE_SIZE } });
  const first = await readPayload<Paged<T>>(reader, keyOf(0), "paged");
  const total = Math.max(0, Math.floor(Number(first.totalPageCount) || 0));
  const maxPages = Math.ceil(maxItems / LIST_PAGE_SIZE);
  const pages = Math.min(total, maxPages);
  const items: T[] = [...(first.pageDataList ?? [])];
  const rest = Array.from({ length: Math.max(0, pages - 1) }, (_, i) => i + 1);
  const CONCURRENCY = 4;
  for (let at = 0; at < rest.length; at += CONCURRENCY) {
    const batch = await Promise.all(rest.slice(at, at + CONCURRENCY).map((index) => readPayload<Paged<T>>(reader, keyOf(index), "paged")));
    for (const page of batch) items.push(...(page.pageDataList ?? []));
  }
  return { items: items.slice(0, maxItems), truncated: total > maxPages || items.length > maxItems };
}
