// A request URL read as the rules see it: its path's decoded segments and its query's parameters, within bounds
// so a lookup's work is bounded whatever a client sends (docs/redirects.md#bounded-work).
import { UNSAFE_DECODED } from "./rule-syntax.ts";

/** Past these a request is never redirected: bounded work whatever a client sends (the URL bound answers 414 later). */
const MAX_URL_CHARS = 4096;
const MAX_SEGMENTS = 64;
const MAX_QUERY_ITEMS = 64;
/** A parameter the request names more than once (`?aid=1&aid=2`): never matched, as neither value is the one. */
export const MANY = Symbol("many");

export interface RequestParts {
  /** Percent-decoded. */
  segments: string[];
  pathKey: string;
  /** Undefined: not readable (bad encoding, too many parameters): rules with a query do not match. */
  query: Map<string, string | typeof MANY> | undefined;
  items: readonly [string, string][];
  rawQuery: string;
}

function decodeSegment(raw: string): string | undefined {
  try {
    const value = decodeURIComponent(raw);
    return UNSAFE_DECODED.test(value) ? undefined : value;
  } catch {
    return undefined;
  }
}

function decodeQueryPart(raw: string): string {
  return decodeURIComponent(raw.replace(/\+/g, " "));
}

const NO_PARAMETERS: Pick<RequestParts, "query" | "items"> = { query: new Map(), items: [] };

function queryOf(raw: string): Pick<RequestParts, "query" | "items"> {
  if (raw === "") return NO_PARAMETERS;
  const parts = raw.split("&", MAX_QUERY_ITEMS + 1);
  if (parts.length > MAX_QUERY_ITEMS) return { query: undefined, items: [] };
  const query = new Map<string, string | typeof MANY>();
  const items: [string, string][] = [];
  try {
    for (const part of parts) {
      if (part === "") continue;
      const eq = part.indexOf("=");
      const key = decodeQueryPart(eq === -1 ? part : part.slice(0, eq));
      const value = eq === -1 ? "" : decodeQueryPart(part.slice(eq + 1));
      query.set(key, query.has(key) ? MANY : value);
      items.push([key, value]);
    }
  } catch {
    return { query: undefined, items: [] };
  }
  return { query, items };
}

/** Undefined for a URL no rule may match: not a path, too long, or a segment that decodes to a separator. */
export function requestPartsOf(url: string): RequestParts | undefined {
  if (url.length > MAX_URL_CHARS || url.charCodeAt(0) !== 47 /* / */) return undefined;
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const raws = path.slice(1).split("/", MAX_SEGMENTS + 1);
  if (raws.length > MAX_SEGMENTS) return undefined;
  const segments: string[] = [];
  for (const raw of raws) {
    const segment = raw.includes("%") ? decodeSegment(raw) : raw.includes("\\") ? undefined : raw;
    if (segment === undefined) return undefined;
    segments.push(segment);
  }
  const rawQuery = q === -1 ? "" : url.slice(q + 1);
  return { segments, pathKey: `/${segments.join("/")}`, rawQuery, ...queryOf(rawQuery) };
}
