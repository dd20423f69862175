// A cached API answer through the shared cache level; what comes back is judged as an upstream answer is,
// and kept only if unchanged by it (docs/behaviour.md#api-cache).
import { HOME_SCRIPT_MARKER } from "../../shared/home-script.ts";
import { ownBytes, prepareAnswer } from "../cache/prepared-answer.ts";
import type { CachedAnswer } from "../cache/response-cache.ts";
import type { SharedCodec } from "../cache/shared-cache-level.ts";
import { answerHeadersOf, classifyUpstreamAnswer } from "./api-reader.ts";

const SCRIPT_IN_JSON = Buffer.from(JSON.stringify(HOME_SCRIPT_MARKER).slice(0, -1));

/** Sanitising cannot tell the upstream's home script (hashed into the CSP) from one written into Redis. */
const holdsHomeScript = (body: Buffer) => body.includes(SCRIPT_IN_JSON);

export function answerCodec(answerHeaders: readonly (readonly [string, string])[]): SharedCodec<CachedAnswer> {
  return {
    encode: (answer) =>
      holdsHomeScript(answer.body) ? undefined : { meta: { status: answer.status, etag: answer.etag }, body: answer.body },
    async decode(meta, reply, key) {
      const { status } = meta;
      if ((status !== 200 && status !== 404) || holdsHomeScript(reply)) return undefined;
      // A view into the whole reply: kept, it would keep the reply.
      const body = ownBytes(reply);
      const { answer, cacheable } = classifyUpstreamAnswer({ status, headers: {}, body }, key.split("?")[0] as string);
      if (!cacheable || !answer.body.equals(body)) return undefined;
      return { ...answer, ready: await prepareAnswer(answer.status, answer.body, answer.etag, answerHeadersOf(answerHeaders, key)) };
    },
  };
}
