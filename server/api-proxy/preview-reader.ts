// The reader of a preview (docs/behaviour.md#preview): every call straight to the upstream with PREVIEW_PARAM=1,
// so it sees drafts; nothing read from or kept in any cache level, here or shared.
import { API_PREFIX } from "../../shared/api-calls.ts";
import { prepareAnswer } from "../cache/prepared-answer.ts";
import type { CachedAnswer } from "../cache/response-cache.ts";
import type { CacheOutcome } from "../cache/swr-cache.ts";
import { type ApiReader, answerHeadersOf, classifyUpstreamAnswer, httpErrorOf, upstreamPathOf } from "./api-reader.ts";
import type { UpstreamClient } from "./upstream-client.ts";

export function previewPathOf(upstreamPath: string, previewParam: string): string {
  return `${upstreamPath}${upstreamPath.includes("?") ? "&" : "?"}${new URLSearchParams([[previewParam, "1"]])}`;
}

export function createPreviewReader(
  upstream: UpstreamClient,
  answerHeaders: readonly (readonly [string, string])[],
  contentLangParam: string | undefined,
  previewParam: string,
): ApiReader {
  const load = async (key: string, requestId: string | undefined): Promise<CacheOutcome<CachedAnswer>> => {
    try {
      const path = previewPathOf(API_PREFIX + upstreamPathOf(key, contentLangParam), previewParam);
      const res = await upstream.request("GET", path, undefined, requestId);
      const { answer } = classifyUpstreamAnswer(res, key.split("?")[0] as string);
      const ready = await prepareAnswer(answer.status, answer.body, answer.etag, answerHeadersOf(answerHeaders, key), "fast");
      return { value: { ...answer, ready }, status: "MISS", freshForMs: 0 };
    } catch (err) {
      throw httpErrorOf(err);
    }
  };
  return {
    get: load,
    current: load,
    fresh: () => undefined,
    startsLoad: () => true,
    adoptShared: async () => false,
  };
}
