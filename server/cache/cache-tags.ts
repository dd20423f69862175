// The cache tags of an upstream answer, from its key and the call table (docs/behaviour.md#cache-tags).
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

export function unionOfTags(tagLists: readonly (readonly string[])[]): string[] {
  return [...new Set(tagLists.flat())].sort();
}

export function cacheTagHeaders(tags: readonly string[]): [string, string][] {
  return tags.length === 0
    ? []
    : [
        ["Cache-Tag", tags.join(",")],
        ["Surrogate-Key", tags.join(" ")],
      ];
}
