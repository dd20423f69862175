// The kind of answer a request got: a fixed set, so the metrics' labels stay few whatever URLs clients invent.
import { API_PREFIX } from "../../shared/call-table.ts";
import { IMAGE_PATH } from "../../shared/image-url.ts";
import { BASE_PATH } from "../../shared/routes.ts";
import { WECHAT_SDK_PATH } from "../../shared/wechat.ts";

export type RouteKind = "page" | "api" | "image" | "static" | "redirect" | "other";

const STATIC_PREFIXES = [`${BASE_PATH}/assets/`, `${BASE_PATH}/media/`];
const NOT_PAGES = [`${BASE_PATH}/healthz`, `${BASE_PATH}/readyz`];

const isRedirect = (status: number) => status === 301 || status === 302 || status === 303 || status === 307 || status === 308;

export function routeKindOf(url: string, status: number): RouteKind {
  if (isRedirect(status)) return "redirect";
  if (url.startsWith(`${API_PREFIX}/`)) return "api";
  if (!url.startsWith(`${BASE_PATH}/`)) return "other";
  if (url.startsWith(IMAGE_PATH) && (url.length === IMAGE_PATH.length || url[IMAGE_PATH.length] === "?")) return "image";
  const path = url.split("?")[0] as string;
  if (STATIC_PREFIXES.some((prefix) => url.startsWith(prefix)) || path === WECHAT_SDK_PATH) return "static";
  if (NOT_PAGES.includes(path) || path.endsWith(".xml")) return "other";
  return "page";
}

export function statusClassOf(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}
