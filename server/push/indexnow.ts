/** One IndexNow request (https://www.indexnow.org/documentation): a JSON POST of up to 10,000 addresses. */
import { answerText, ENGINE_TIMEOUT_MS, type EngineAnswer, errorText, retryAfterMs } from "./engine-answer.ts";

export const INDEXNOW_BATCH = 10_000;

export interface IndexNowSettings {
  key: string;
  endpoint: string;
  publicOrigin: string;
}

/** Where the key file is served: at the origin's root, so it covers every address on the host. */
export const keyLocationOf = (settings: Pick<IndexNowSettings, "key" | "publicOrigin">) => `${settings.publicOrigin}/${settings.key}.txt`;

export async function sendToIndexNow(settings: IndexNowSettings, urls: readonly string[], stop?: AbortSignal): Promise<EngineAnswer> {
  const body = JSON.stringify({
    host: new URL(settings.publicOrigin).host,
    key: settings.key,
    keyLocation: keyLocationOf(settings),
    urlList: urls,
  });
  let response: Response;
  try {
    response = await fetch(settings.endpoint, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body,
      redirect: "error",
      signal: stop ? AbortSignal.any([stop, AbortSignal.timeout(ENGINE_TIMEOUT_MS)]) : AbortSignal.timeout(ENGINE_TIMEOUT_MS),
    });
  } catch (error) {
    return { kind: "retry", reason: `IndexNow could not be reached: ${errorText(error)}` };
  }
  const text = (await answerText(response).catch(() => "")).replace(/\s+/g, " ").slice(0, 200);
  const { status } = response;
  if (status === 200 || status === 202) return { kind: "sent", count: urls.length };
  // 400 bad request, 403 key not valid, 422 addresses not on the host: sending again changes nothing.
  if (status === 400 || status === 403 || status === 422) return { kind: "drop", reason: `IndexNow answered ${status} ${text}`.trim() };
  return { kind: "retry", reason: `IndexNow answered ${status} ${text}`.trim(), afterMs: retryAfterMs(response) };
}
