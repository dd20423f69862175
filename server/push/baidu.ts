/**
 * One request to Baidu's 普通收录 (ordinary inclusion) API: a text/plain POST of up to 2,000
 * addresses, one a line, answered `{ "success": n, "remain": m }` or `{ "error": code, "message": text }`.
 */
import { answerText, ENGINE_TIMEOUT_MS, type EngineAnswer, errorText } from "./engine-answer.ts";

export const BAIDU_BATCH = 2000;

export interface BaiduSettings {
  token: string;
  endpoint: string;
  publicOrigin: string;
}

/** The message Baidu documents for a spent daily quota ("over quota"; 超过每日配额了). */
const OVER_QUOTA = /over\s*quota|配额/i;

interface BaiduAnswer {
  success?: unknown;
  remain?: unknown;
  not_same_site?: unknown;
  not_valid?: unknown;
  error?: unknown;
  message?: unknown;
}

const count = (value: unknown) => (Array.isArray(value) ? value.length : 0);

export function baiduUrlOf(settings: BaiduSettings): string {
  const url = new URL(settings.endpoint);
  url.searchParams.set("site", new URL(settings.publicOrigin).host);
  url.searchParams.set("token", settings.token);
  return url.href;
}

export async function sendToBaidu(settings: BaiduSettings, urls: readonly string[], stop?: AbortSignal): Promise<EngineAnswer> {
  let response: Response;
  try {
    response = await fetch(baiduUrlOf(settings), {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: urls.join("\n"),
      redirect: "error",
      signal: stop ? AbortSignal.any([stop, AbortSignal.timeout(ENGINE_TIMEOUT_MS)]) : AbortSignal.timeout(ENGINE_TIMEOUT_MS),
    });
  } catch (error) {
    // The message may hold the URL, and so the token.
    return { kind: "retry", reason: `Baidu could not be reached: ${errorText(error).replaceAll(settings.token, "***")}` };
  }
  const text = await answerText(response).catch(() => "");
  let answer: BaiduAnswer = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === "object") answer = parsed as BaiduAnswer;
  } catch {}
  const message = typeof answer.message === "string" ? answer.message.slice(0, 200) : text.replace(/\s+/g, " ").slice(0, 200);
  if (response.ok && typeof answer.success === "number") {
    const remain = typeof answer.remain === "number" ? answer.remain : undefined;
    const sent: EngineAnswer = {
      kind: "sent",
      count: answer.success,
      rejected: count(answer.not_same_site) + count(answer.not_valid),
      remain,
    };
    return sent;
  }
  if (OVER_QUOTA.test(message)) return { kind: "quota", reason: `Baidu answered ${response.status} ${message}` };
  return { kind: "retry", reason: `Baidu answered ${response.status} ${message}`.trim() };
}
