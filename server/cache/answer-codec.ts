/**
 * How a cached API answer travels through the shared tier (shared-tier/shared-cache-level.ts):
 * its status, entity tag and body only. The instance that reads it parses the body and
 * lays it out for HTTP with its own headers, as it does an upstream answer.
 */
import { ownBytes, prepareAnswer } from "../http/prepared-answer.ts";
import type { SharedCodec } from "../shared-tier/shared-cache-level.ts";
import type { CachedAnswer } from "./response-cache.ts";

export function answerCodec(answerHeaders: readonly (readonly [string, string])[]): SharedCodec<CachedAnswer> {
  return {
    encode: (answer) => ({ meta: { status: answer.status, etag: answer.etag }, body: answer.body }),
    async decode(meta, reply) {
      // A view into the whole reply: kept, it would keep the reply.
      const body = ownBytes(reply);
      const status = Number(meta.status);
      const etag = String(meta.etag);
      const json: unknown = JSON.parse(body.toString("utf8"));
      return { status, body, etag, json, ready: await prepareAnswer(status, body, etag, answerHeaders) };
    },
  };
}
