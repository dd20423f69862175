// Reads upstream GET calls through the response cache, shared by the /api/portal router and the page loader,
// so a render and a browser's API call are answered from the same entry.

import type { IncomingHttpHeaders } from "node:http";
import { API_PREFIX } from "../../shared/api-calls.ts";
import { keyLangOf } from "../../shared/data-keys.ts";
import { errorEnvelope } from "../../shared/envelope.ts";
import { baseLang } from "../../shared/site-langs.ts";
import { cacheTagHeaders, cacheTagsOfKey } from "../cache/cache-tags.ts";
import { ownBytes, prepareAnswer } from "../cache/prepared-answer.ts";
import type { CachedAnswer, ResponseCache } from "../cache/response-cache.ts";
import { etagOf } from "../cache/response-cache.ts";
import type { CacheOutcome, Loaded } from "../cache/swr-cache.ts";
import type { Config } from "../config.ts";
import { HttpError } from "../http/errors.ts";
import { sanitizePayload } from "../sanitize/sanitize-payload.ts";
import { type UpstreamClient, UpstreamError, type UpstreamResponse } from "./upstream-client.ts";

export interface ApiReader {
  /** `key`: a call path relative to /api/portal plus its normalised query. */
  get(key: string, requestId?: string): Promise<CacheOutcome<CachedAnswer>>;
  /** As `get`, but a stale answer is refreshed and waited for: for renders no visitor waits on. */
  current(key: string, requestId?: string): Promise<CacheOutcome<CachedAnswer>>;
  fresh(key: string): CacheOutcome<CachedAnswer> | undefined;
  startsLoad(key: string): boolean;
  adoptShared(key: string): Promise<boolean>;
}

function forbidsStoring(headers: IncomingHttpHeaders): boolean {
  if (headers["set-cookie"]) return true;
  const cacheControl = String(headers["cache-control"] ?? "").toLowerCase();
  return /(^|[\s,])(no-store|private)(\s*($|[,=]))/.test(cacheControl);
}

function parseEnvelope(body: Buffer): { code: number } | undefined {
  try {
    const json = JSON.parse(body.toString("utf8"));
    return json !== null && typeof json === "object" && !Array.isArray(json) && typeof json.code === "number" ? json : undefined;
  } catch {
    return undefined;
  }
}

const NOT_FOUND_BODY = Buffer.from(JSON.stringify(errorEnvelope(404, "no such item")));

interface ClassifiedAnswer {
  answer: Omit<CachedAnswer, "ready">;
  cacheable: boolean;
}

/** What an upstream answer means, and whether it is stored (docs/behaviour.md#api-cache). */
export function classifyUpstreamAnswer(res: UpstreamResponse, callPath: string): ClassifiedAnswer {
  if (res.status === 404) {
    const envelope = parseEnvelope(res.body);
    const body = envelope ? ownBytes(res.body) : NOT_FOUND_BODY;
    return {
      answer: { status: 404, body, etag: etagOf(body) },
      cacheable: !forbidsStoring(res.headers),
    };
  }
  if (res.status < 200 || res.status > 299) throw new HttpError(502, `upstream answered ${res.status}`);
  const envelope = parseEnvelope(res.body);
  if (!envelope) throw new HttpError(502, "upstream answer is not a valid JSON envelope");
  if (envelope.code !== 0) {
    return { answer: { status: 200, body: res.body, etag: etagOf(res.body) }, cacheable: false };
  }
  // HTML fields are made safe once, here, so no reader of the cache sees them raw.
  const safe = { ...envelope, data: sanitizePayload(callPath, (envelope as { data?: unknown }).data) };
  const body = ownBytes(Buffer.from(JSON.stringify(safe)));
  return { answer: { status: 200, body, etag: etagOf(body) }, cacheable: !forbidsStoring(res.headers) };
}

export function httpErrorOf(err: unknown): unknown {
  if (err instanceof UpstreamError) {
    if (err.kind === "timeout") return new HttpError(504, "upstream timed out");
    if (err.kind === "busy") return new HttpError(503, "upstream is busy; try again shortly", { "Retry-After": "1" });
    return new HttpError(502, "upstream is unavailable");
  }
  return err;
}

export function answerHeadersOf(answerHeaders: readonly (readonly [string, string])[], key: string): (readonly [string, string])[] {
  return [...answerHeaders, ...cacheTagHeaders(cacheTagsOfKey(key))];
}

export function ttlFor(path: string, cache: Config["cache"]): number {
  return cache.ttlOverrides.find((o) => path.startsWith(o.prefix))?.ttlMs ?? cache.ttlMs;
}

/** A key's `lang=<tag>` goes upstream as CONTENT_LANG_PARAM=<tag> (docs/behaviour.md#languages). */
export function upstreamPathOf(key: string, contentLangParam: string | undefined): string {
  const { key: plain, lang } = keyLangOf(key);
  if (lang === baseLang() || !contentLangParam) return plain;
  return `${plain}${plain.includes("?") ? "&" : "?"}${new URLSearchParams([[contentLangParam, lang]])}`;
}

export function createApiReader(
  cache: ResponseCache,
  upstream: UpstreamClient,
  cacheConfig: Config["cache"],
  answerHeaders: readonly (readonly [string, string])[],
  contentLangParam?: string,
): ApiReader {
  const loadOf = (key: string, requestId: string | undefined) => async (): Promise<Loaded<CachedAnswer>> => {
    let classified: ClassifiedAnswer;
    try {
      const res = await upstream.request("GET", API_PREFIX + upstreamPathOf(key, contentLangParam), undefined, requestId);
      classified = classifyUpstreamAnswer(res, key.split("?")[0] as string);
    } catch (err) {
      throw httpErrorOf(err);
    }
    const { answer, cacheable } = classified;
    const ready = await prepareAnswer(answer.status, answer.body, answer.etag, answerHeadersOf(answerHeaders, key));
    return { value: { ...answer, ready }, freshForMs: cacheable ? ttlFor(key, cacheConfig) : undefined };
  };
  return {
    get: (key, requestId) => cache.get(key, loadOf(key, requestId)),
    current: (key, requestId) => cache.current(key, loadOf(key, requestId)),
    fresh: (key) => cache.fresh(key),
    startsLoad: (key) => cache.startsLoad(key),
    adoptShared: (key) => cache.adopt(key),
  };
}

export function readerFor(reader: ApiReader, requestId: string | undefined): ApiReader {
  return { ...reader, get: (key) => reader.get(key, requestId) };
}
