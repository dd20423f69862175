// The small HTML 429 of a spent miss budget (docs/behaviour.md#miss-budget), written straight to the Node
// response so the fast path can send it too.
import type { ServerResponse } from "node:http";
import type { Lang } from "../../shared/page-state.ts";
import { errorAnswer, writeErrorAnswer } from "../http/errors.ts";

const TEXT: Record<Lang, { title: string; body: (seconds: number) => string }> = {
  "zh-CN": { title: "请求过于频繁", body: (s) => `请 ${s} 秒后再试。` },
  en: { title: "Too many requests", body: (s) => `Please try again in ${s} seconds.` },
};

export function sendTooManyPage(
  res: ServerResponse,
  retryAfterS: number,
  lang: Lang,
  headers: readonly (readonly [string, string])[] = [],
): void {
  const text = TEXT[lang];
  const body = Buffer.from(
    `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>429 ${text.title}</title></head><body><h1>${text.title}</h1><p>${text.body(retryAfterS)}</p></body></html>\n`,
  );
  writeErrorAnswer(res, errorAnswer(429, body, "text/html; charset=utf-8", { "Retry-After": String(retryAfterS) }), headers);
}
