/**
 * The <head> content of a server-rendered page, from the site config and author info
 * (CONTRACT section 3): title, keywords, description, the search engines'
 * verification metas, favicon and theme colour.
 */
import type { SiteConfig } from "../../shared/entities.ts";
import { keys } from "../../shared/page-data.ts";
import type { RouteMatch } from "../../shared/routes.ts";
import type { Translate } from "../i18n/use-t.ts";
import { documentTitle, type ReadPayload } from "./page-title.ts";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

const VERIFY_METAS: [keyof SiteConfig, string][] = [
  ["baiduVerify", "baidu-site-verification"],
  ["so360Verify", "360-site-verification"],
  ["tencentVerify", "sogou_site_verification"],
  ["googleVerify", "google-site-verification"],
];

/** Theme mode 2 is white text on black; the others are light. */
export function themeColorOf(config: SiteConfig | undefined): string {
  return config?.themePortal?.split(",")[0]?.trim() === "2" ? "#000000" : "#ffffff";
}

export function documentHead(match: RouteMatch | null, read: ReadPayload, t: Translate, extra: string[] = []): string {
  const config = read<SiteConfig>(keys.syscfg());
  const meta = (name: string, content: string | undefined) => (content ? `<meta name="${name}" content="${escapeHtml(content)}">` : "");
  const tags = [
    `<title>${escapeHtml(documentTitle(match, read, t))}</title>`,
    meta("keywords", config?.metaKeywords),
    meta("description", config?.metaDescription),
    ...VERIFY_METAS.map(([field, name]) => meta(name, config?.[field])),
    meta("theme-color", themeColorOf(config)),
    config?.ico && /^(https?:\/\/|\/)/.test(config.ico) ? `<link rel="icon" href="${escapeHtml(config.ico)}">` : "",
    ...extra,
  ];
  return tags.filter(Boolean).join("\n    ");
}
