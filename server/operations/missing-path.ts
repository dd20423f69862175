// Which answers are missing pages, and the one form a missing path is counted under (docs/behaviour.md#missing-pages).
import { API_PREFIX } from "../../shared/call-table.ts";
import { IMAGE_PATH } from "../../shared/image-url.ts";
import { BASE_PATH } from "../../shared/routes.ts";

/** Longer paths are cut here (at a whole escape), so one entry's size is bounded whatever a client sends. */
export const MAX_PATH_CHARS = 512;
const MAX_ORIGIN_CHARS = 256;

const NOT_PAGES = [API_PREFIX, IMAGE_PATH, `${BASE_PATH}/assets/`, `${BASE_PATH}/media/`];
/** Files a browser fetches by itself (icons, images, styles, scripts, fonts): a missing one is not a missing page. */
const FILE_EXTENSION = /\.(?:ico|png|jpe?g|gif|webp|avif|svg|bmp|css|m?js|map|woff2?|ttf|otf|eot)$/i;

/** What decodeURI turns back into a character and a path may hold as it is; every other escape stays one. */
const DECODED = /^[A-Za-z0-9\-._~!'()*]$/;
/** Characters a path may hold unescaped (RFC 3986 pchar and "/"). */
const LITERAL = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/;

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;

function escapeChar(char: string): string {
  return Array.from(Buffer.from(char, "utf8"), hex).join("");
}

/**
 * The path as one canonical text: escapes of plain characters decoded, every other escape in upper case, and any
 * character a path may not hold escaped as UTF-8, so `/a%2d%E6%96%B0` and `/a-新` are one entry. Undefined: no path.
 */
export function missingPathOf(url: string): string | undefined {
  let raw = url.split(/[?#]/, 1)[0] as string;
  if (!raw.startsWith("/")) {
    // An absolute-form request target (GET http://host/path): its path.
    try {
      raw = new URL(raw).pathname;
    } catch {
      return undefined;
    }
  }
  let out = "";
  for (let i = 0; i < raw.length && out.length < MAX_PATH_CHARS; ) {
    const char = raw[i] as string;
    if (char === "%" && /^[0-9A-Fa-f]{2}$/.test(raw.slice(i + 1, i + 3))) {
      const byte = Number.parseInt(raw.slice(i + 1, i + 3), 16);
      const plain = String.fromCharCode(byte);
      out += byte < 0x80 && DECODED.test(plain) ? plain : hex(byte);
      i += 3;
      continue;
    }
    const code = raw.codePointAt(i) as number;
    const whole = String.fromCodePoint(code);
    out += LITERAL.test(whole) ? whole : escapeChar(whole);
    i += whole.length;
  }
  if (out.length <= MAX_PATH_CHARS) return out;
  const cut = out.slice(0, MAX_PATH_CHARS);
  // Never half an escape.
  const percent = cut.lastIndexOf("%");
  return percent > MAX_PATH_CHARS - 3 ? cut.slice(0, percent) : cut;
}

/** Whether a missing answer at this path is a page's (not the API's, an image's or a file's). */
export function isPagePath(path: string): boolean {
  if (NOT_PAGES.some((prefix) => path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`))) return false;
  return !FILE_EXTENSION.test(path);
}

/** The origin of a Referer header (never its path or query), or null. */
export function referrerOriginOf(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    const { protocol, origin } = new URL(referer);
    if (protocol !== "http:" && protocol !== "https:") return null;
    return origin.length <= MAX_ORIGIN_CHARS ? origin : null;
  } catch {
    return null;
  }
}
