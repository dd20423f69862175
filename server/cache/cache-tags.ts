/**
 * The cache tags of an upstream answer (docs/behaviour.md#cache-tags), from its key and the
 * call table: a detail `news:12`, a list `news:list`, a single record its own name
 * (`site`, `menu`, `home`, `company`), each also the bare entity (`news`), so one tag
 * reaches everything about it. A key no call names is a configured classify list: the
 * entries of a menu, tagged `menu`.
 */
import { getCallOf } from "../../shared/call-table.ts";
import { SEARCH_PATH } from "../../shared/search.ts";

const MENU_TAGS: readonly string[] = ["menu"];

const SEARCH_TAGS: readonly string[] = ["search"];

export function cacheTagsOfKey(key: string): readonly string[] {
  if (key === SEARCH_PATH || key.startsWith(`${SEARCH_PATH}?`)) return SEARCH_TAGS;
  const call = getCallOf(key);
  if (!call) return MENU_TAGS;
  if (call.detail) {
    const path = key.split("?")[0] as string;
    return [`${call.tag}:${path.slice(call.path.length - "{id}".length)}`, call.tag];
  }
  return call.payload === "object" ? [call.tag] : [`${call.tag}:list`, call.tag];
}

/** The tags of a page: the union of its data's, in a stable order. */
export function unionOfTags(tagLists: readonly (readonly string[])[]): string[] {
  return [...new Set(tagLists.flat())].sort();
}

/**
 * Tags as response headers: `Cache-Tag` comma-separated (Cloudflare, Akamai), `Surrogate-Key`
 * space-separated (Fastly, Varnish xkey). Tags never hold either separator.
 */
export function cacheTagHeaders(tags: readonly string[]): [string, string][] {
  return tags.length === 0
    ? []
    : [
        ["Cache-Tag", tags.join(",")],
        ["Surrogate-Key", tags.join(" ")],
      ];
}
