/**
 * The answer to a page request whose client has spent its miss budget (http/miss-budget.ts):
 * a small HTML page, never stored, saying when to try again. It is written as it is, with
 * no render and no data, so refusing costs next to nothing.
 */
import type { Response } from "express";
import type { Lang } from "../../shared/page-state.ts";

const TEXT: Record<Lang, { title: string; body: (seconds: number) => string }> = {
  "zh-CN": { title: "请求过于频繁", body: (s) => `请 ${s} 秒后再试。` },
  en: { title: "Too many requests", body: (s) => `Please try again in ${s} seconds.` },
};

export function sendTooManyPage(res: Response, retryAfterS: number, lang: Lang): void {
  const text = TEXT[lang];
  res
    .status(429)
    .set({ "Retry-After": String(retryAfterS), "Cache-Control": "no-store", "Content-Type": "text/html; charset=utf-8" })
    .send(
      `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>429 ${text.title}</title></head><body><h1>${text.title}</h1><p>${text.body(retryAfterS)}</p></body></html>\n`,
    );
}
