// The small HTML 429 of a spent miss budget (docs/behaviour.md#miss-budget), written straight to the Node
// response so the fast path can send it too.
import type { ServerResponse } from "node:http";
import { dirOf } from "../../shared/langs.ts";
import type { Lang } from "../../shared/page-state.ts";
import { errorAnswer, writeErrorAnswer } from "../http/errors.ts";

const TEXT: Record<Lang, { title: string; body: (seconds: number) => string }> = {
  "zh-CN": { title: "请求过于频繁", body: (s) => `请 ${s} 秒后再试。` },
  "zh-TW": { title: "請求過於頻繁", body: (s) => `請於 ${s} 秒後再試。` },
  en: { title: "Too many requests", body: (s) => `Please try again in ${s} seconds.` },
  ja: { title: "アクセスが集中しています", body: (s) => `${s} 秒後にもう一度お試しください。` },
  ko: { title: "요청이 너무 많습니다", body: (s) => `${s}초 후에 다시 시도해 주세요.` },
  es: { title: "Demasiadas solicitudes", body: (s) => `Vuelva a intentarlo dentro de ${s} segundos.` },
  fr: { title: "Trop de requêtes", body: (s) => `Veuillez réessayer dans ${s} secondes.` },
  de: { title: "Zu viele Anfragen", body: (s) => `Bitte versuchen Sie es in ${s} Sekunden erneut.` },
  ru: { title: "Слишком много запросов", body: (s) => `Повторите попытку через ${s} с.` },
  ar: { title: "طلبات كثيرة جدًا", body: (s) => `يُرجى المحاولة مرة أخرى بعد ${s} ثانية.` },
};

export function sendTooManyPage(
  res: ServerResponse,
  retryAfterS: number,
  lang: Lang,
  headers: readonly (readonly [string, string])[] = [],
): void {
  const text = TEXT[lang];
  const body = Buffer.from(
    `<!DOCTYPE html><html lang="${lang}"${dirOf(lang) === "rtl" ? ' dir="rtl"' : ""}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>429 ${text.title}</title></head><body><h1>${text.title}</h1><p>${text.body(retryAfterS)}</p></body></html>\n`,
  );
  writeErrorAnswer(res, errorAnswer(429, body, "text/html; charset=utf-8", { "Retry-After": String(retryAfterS) }), headers);
}
