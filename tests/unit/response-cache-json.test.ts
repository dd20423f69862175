/** The API cache keeps each answer's body only: every read parses its own copy of the JSON. */
import { describe, expect, it } from "vitest";
import { classifyUpstreamAnswer } from "../../server/api-proxy/api-reader.ts";
import { prepareAnswer } from "../../server/cache/prepared-answer.ts";
import { type CachedAnswer, createResponseCache, jsonOf } from "../../server/cache/response-cache.ts";

async function answerOf(data: unknown): Promise<CachedAnswer> {
  const body = Buffer.from(JSON.stringify({ code: 0, msg: "ok", data }));
  const { answer } = classifyUpstreamAnswer({ status: 200, headers: {}, body }, "/sys/syscfg");
  return { ...answer, ready: await prepareAnswer(answer.status, answer.body, answer.etag, []) };
}

describe("API cache answers", () => {
  it("give every reader its own parsed JSON: what one render changes, the next read does not see", async () => {
    const cache = createResponseCache({ maxBytes: 1024 * 1024, staleMs: 0 });
    const load = async () => ({ value: await answerOf({ metaKeywords: "demo", menus: [1, 2] }), freshForMs: 60_000 });
    const first = jsonOf((await cache.get("/sys/syscfg", load)).value) as { data: { metaKeywords: string; menus: number[] } };
    first.data.metaKeywords = "changed by a render";
    first.data.menus.push(3);
    const second = await cache.get("/sys/syscfg", load);
    expect(second.status).toBe("HIT");
    expect(jsonOf(second.value)).toEqual({ code: 0, msg: "ok", data: { metaKeywords: "demo", menus: [1, 2] } });
  });

  it("read as null when the body is not JSON", () => {
    expect(jsonOf({ body: Buffer.from("<html>not json</html>") })).toBeNull();
  });
});
