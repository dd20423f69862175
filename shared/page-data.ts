/**
 * Which data calls each page needs, as keys (shared/data-keys.ts). The server loads
 * exactly these before rendering and hands them to the browser, which asks for the
 * same keys as it renders.
 */
import { classifyKey, keys } from "./data-keys.ts";
import type { ClassifyMenu } from "./entities.ts";
import type { RouteMatch } from "./page-route.ts";

export {
  apiKey,
  classifyKey,
  detailKey,
  HOME_MESSAGE_COUNT,
  keyInLang,
  keyLangOf,
  keys,
  MILESTONE_PAGE_SIZE,
  pagingQuery,
} from "./data-keys.ts";
export { idListOf, type JobFilter, jobFilterOf, type ListPaging, listPagingOf, PAGE_SIZES } from "./list-query.ts";

/**
 * The fields pages use of lists whose items also carry long HTML that only their detail
 * pages show (the home grids, and the menus that group products and services by type):
 * the state embedded in a page keeps just these, not every full description.
 */
export const EMBEDDED_LIST_FIELDS: Readonly<Record<string, readonly string[]>> = {
  [keys.products()]: ["id", "name", "propImg", "type", "lang"],
  [keys.services()]: ["id", "name", "type", "lang"],
};

/** A payload as a page embeds it: lists named in EMBEDDED_LIST_FIELDS keep only their shown fields. */
export function embeddedPayload(key: string, payload: unknown): unknown {
  const fields = EMBEDDED_LIST_FIELDS[key];
  if (!fields || !Array.isArray(payload)) return payload;
  return payload.map((item: unknown) =>
    item !== null && typeof item === "object"
      ? Object.fromEntries(fields.filter((f) => f in item).map((f) => [f, (item as Record<string, unknown>)[f]]))
      : item,
  );
}

/** Calls every page needs: site config and author (the first paint), menus and their classify data. */
export function shellKeys(classify: readonly ClassifyMenu[]): string[] {
  return [keys.syscfg(), keys.sysauthor(), keys.menus(), ...classify.map(classifyKey)];
}

/** The calls a page's content needs, beyond the shell's: its route module says which (a detail page's item by default). */
export function pageKeys({ route, id }: RouteMatch, query: URLSearchParams): string[] {
  if (route.dataKeys) return route.dataKeys(id, query);
  return route.detail && id !== undefined ? [route.detail.key(id)] : [];
}
