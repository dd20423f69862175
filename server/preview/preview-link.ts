/** Signed preview links and what they lead to (docs/behaviour.md#preview): HMAC-SHA256 of "<path>.<expires>", base64url. */

import { PREVIEW_PATH } from "../../shared/preview.ts";
import type { PurgeSecret } from "../config.ts";
import { signatureOf, signedByOneOf } from "../purge/purge-auth.ts";

const MAX_PATH_LENGTH = 2048;
/** Nothing a browser could take for another host, scheme or line: `//`, `\`, controls, spaces. */
const UNSAFE = (raw: string) => /[\\\s]/.test(raw) || [...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** `raw` as a path of this site's pages (`/portal` or below, query kept), or undefined for anything else. */
export function sitePathOf(raw: unknown): string | undefined {
  if (typeof raw !== "string" || raw.length > MAX_PATH_LENGTH || UNSAFE(raw)) return undefined;
  const under = (path: string) => /^\/portal(?:[/?#]|$)/.test(path);
  if (!under(raw)) return undefined;
  // Dot segments resolved: `/portal/../admin` is not under /portal.
  const url = new URL(raw, "http://site.invalid");
  if (url.host !== "site.invalid" || !under(url.pathname) || url.pathname.startsWith(PREVIEW_PATH)) return undefined;
  return url.pathname + url.search;
}

export function previewLinkOf(path: string, expiresS: number, secret: PurgeSecret): string {
  const sig = signatureOf(secret, `${path}.${expiresS}`, "base64url");
  return `${PREVIEW_PATH}?${new URLSearchParams({ path, expires: String(expiresS), sig })}`;
}

type LinkCheck = { ok: true; path: string; expiresS: number } | { ok: false; error: string };

/** `query` is the link's; every refusal is one the editor can act on, and none says which secret is wrong. */
export function checkPreviewLink(query: URLSearchParams, secrets: readonly PurgeSecret[], nowMs: number): LinkCheck {
  const [path, expires, sig] = (["path", "expires", "sig"] as const).map((name) => query.getAll(name));
  if (path?.length !== 1 || expires?.length !== 1 || sig?.length !== 1) {
    return { ok: false, error: "a preview link has path, expires and sig, each once" };
  }
  const [rawPath, rawExpires, given] = [path[0] as string, expires[0] as string, sig[0] as string];
  const sitePath = sitePathOf(rawPath);
  if (sitePath === undefined) return { ok: false, error: "path must be a page of this site, under /portal" };
  if (!/^\d{1,12}$/.test(rawExpires)) return { ok: false, error: "expires must be whole seconds since 1970" };
  if (!signedByOneOf(`${rawPath}.${rawExpires}`, given, secrets, "base64url")) {
    return { ok: false, error: "this preview link's signature does not match" };
  }
  const expiresS = Number(rawExpires);
  if (expiresS * 1000 <= nowMs) return { ok: false, error: "this preview link has expired; ask for a new one" };
  return { ok: true, path: sitePath, expiresS };
}
