/** The image endpoint's query, read from the raw query string and checked before anything is fetched (docs/behaviour.md#images). */
import { IMAGE_QUALITIES, IMAGE_WIDTHS, type ImageQuality, type ImageWidth } from "../../shared/image-url.ts";
import { HttpError } from "../http/errors.ts";

export type ImageSource = { kind: "site"; path: string } | { kind: "remote"; url: URL };

export interface ImageRequest {
  source: ImageSource;
  width: ImageWidth;
  quality: ImageQuality;
}

interface ImageOrigins {
  /** The upstream's and IMAGE_HOSTS. */
  allowed: ReadonlySet<string>;
  /** PUBLIC_ORIGIN: an absolute URL on it is the site-relative path it names. */
  site?: string;
  /** Only its image files may be read: it also answers the content API. */
  upstream?: string;
  allowSvg?: boolean;
}

const MAX_URL_LENGTH = 2048;
const MEDIA_PREFIX = "/portal/media/";
const RASTER_FILE = /\.(png|jpe?g|webp|avif|gif)$/i;
const SVG_FILE = /\.svg$/i;
const PARAMETERS = new Set(["url", "w", "q"]);

const bad = (message: string) => new HttpError(400, message);

export function sourceKey(source: ImageSource): string {
  return source.kind === "site" ? source.path : source.url.href;
}

export function parseImageQuery(rawQuery: string, origins: ImageOrigins): ImageRequest {
  const values = new Map<string, string>();
  for (const part of rawQuery.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const name = eq === -1 ? part : part.slice(0, eq);
    // Raw names only: `url[]`, `url[a]` or an encoded name are not parameters of this endpoint.
    if (!PARAMETERS.has(name)) throw bad(`unknown parameter "${name.slice(0, 40)}": only url, w and q are accepted`);
    if (values.has(name)) throw bad(`${name} is given more than once`);
    let value: string;
    try {
      value = decodeURIComponent((eq === -1 ? "" : part.slice(eq + 1)).replace(/\+/g, " "));
    } catch {
      throw bad(`${name} is not valid percent-encoding`);
    }
    values.set(name, value);
  }
  return {
    width: listed("w", values.get("w"), IMAGE_WIDTHS),
    quality: listed("q", values.get("q"), IMAGE_QUALITIES),
    source: sourceOf(values.get("url"), origins),
  };
}

function listed<T extends number>(name: string, raw: string | undefined, list: readonly T[]): T {
  if (raw === undefined || raw === "") throw bad(`${name} is required: one of ${list.join(", ")}`);
  const found = /^[1-9]\d{0,4}$/.test(raw) ? list.find((v) => v === Number(raw)) : undefined;
  if (found === undefined) throw bad(`${name} must be one of ${list.join(", ")}`);
  return found;
}

function sourceOf(raw: string | undefined, origins: ImageOrigins): ImageSource {
  if (raw === undefined || raw === "") throw bad("url is required: an image path on this site or an http(s) URL on an allowed host");
  if (raw.length > MAX_URL_LENGTH) throw bad(`url is longer than ${MAX_URL_LENGTH} characters`);
  // URL parsers disagree on these; encoded separators, dots or % become segments once the source decodes them.
  if (/[\s\\]/.test(raw) || [...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    throw bad("url must not contain spaces, control characters or backslashes");
  if (/%(2f|5c|2e|25|00)/i.test(raw)) throw bad("url must not contain encoded slashes, backslashes, dots or percent signs");
  if (raw.includes("#")) throw bad("url must not have a fragment");
  if (raw.startsWith("/") && !raw.startsWith("//")) return { kind: "site", path: sitePath(raw, origins) };
  if (!/^https?:\/\//i.test(raw)) throw bad("url must be a path on this site (starting with /) or an absolute http(s) URL");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad("url is not a valid URL");
  }
  if (url.username || url.password) throw bad("url must not carry credentials");
  if (origins.site !== undefined && url.origin === origins.site) {
    // Without a fragment, a "?" in the URL can only start its query (an empty one included).
    return { kind: "site", path: sitePath(url.pathname + (url.href.includes("?") ? url.search || "?" : ""), origins) };
  }
  if (!origins.allowed.has(url.origin)) throw bad("url is not on an allowed image host (the upstream's origin or IMAGE_HOSTS)");
  if (hasDotSegment(url.pathname)) throw bad("url must not have . or .. path segments");
  if (url.origin === origins.upstream) imageFileOnly(raw, url.pathname, origins, false);
  return { kind: "remote", url };
}

function sitePath(raw: string, origins: ImageOrigins): string {
  const path = raw.split("?")[0] as string;
  if (hasDotSegment(path)) throw bad("url must not have . or .. path segments");
  // Parsed against a placeholder origin only to normalise its encoding; the path stays on the site.
  const url = new URL(raw, "http://site.invalid");
  imageFileOnly(raw, url.pathname, origins, url.pathname.startsWith(MEDIA_PREFIX));
  return url.pathname;
}

/** Another path would be an API call or a probe; a query, endless variants of one image. */
function imageFileOnly(raw: string, pathname: string, origins: ImageOrigins, embedded: boolean): void {
  if (raw.includes("?")) throw bad("url must not have a query: a site or upstream image is a plain file path");
  if (RASTER_FILE.test(pathname)) return;
  if (SVG_FILE.test(pathname)) {
    if (embedded || origins.allowSvg) return;
    throw bad("url is an SVG image, which is served only from the embedded media unless IMAGE_ALLOW_SVG=on");
  }
  throw bad("url must be an image file on the site or the upstream: a path ending in .png, .jpg, .jpeg, .webp, .avif or .gif");
}

function hasDotSegment(path: string): boolean {
  return path.split("/").some((segment) => segment === "." || segment === "..");
}
