/** Which data keys each page needs: the server loads exactly these, and the browser asks for the same. */
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

/** List items also carry long HTML only their detail pages show: the embedded state keeps just these fields. */
const EMBEDDED_LIST_FIELDS: Readonly<Record<string, readonly string[]>> = {
  [keys.products()]: ["id", "name", "propImg", "type", "lang"],
  [keys.services()]: ["id", "name", "type", "lang"],
};

export function embeddedPayload(key: string, payload: unknown): unknown {
  const fields = EMBEDDED_LIST_FIELDS[key];
  if (!fields || !Array.isArray(payload)) return payload;
  return payload.map((item: unknown) =>
    item !== null && typeof item === "object"
      ? Object.fromEntries(fields.filter((f) => f in item).map((f) => [f, (item as Record<string, unknown>)[f]]))
      : item,
  );
}

export function shellKeys(classify: readonly ClassifyMenu[]): string[] {
  return [keys.syscfg(), keys.sysauthor(), keys.menus(), ...classify.map(classifyKey)];
}

export function pageKeys({ route, id }: RouteMatch, query: URLSearchParams): string[] {
  if (route.dataKeys) return route.dataKeys(id, query);
  return route.detail && id !== undefined ? [route.detail.key(id)] : [];
}
