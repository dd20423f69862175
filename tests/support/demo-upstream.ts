/**
 * The demo site (content/site.json) as a stand-in upstream's routes, for tests of a site
 * in front of an external content API. With `langParam`, it reads the content language
 * from that query parameter as docs/behaviour.md#languages says: translated items in English, the
 * rest in Chinese marked `"lang": "zh-CN"`; without, it has no translations at all.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_DIR } from "./server-process.ts";

type Item = Record<string, unknown> & { id?: number };
type Route = (url: URL) => { body: unknown };

const SITE = JSON.parse(readFileSync(path.join(PROJECT_DIR, "content/site.json"), "utf8")) as Record<string, unknown> & {
  translations?: { en?: Record<string, unknown> };
};

const ok = (data: unknown) => ({ body: { code: 0, msg: "ok", data } });

export function demoUpstreamRoutes(langParam?: string): Record<string, Route> {
  const english = SITE.translations?.en ?? {};
  const inLang = (entity: string, item: Item, url: URL): Item => {
    if (!langParam || url.searchParams.get(langParam) !== "en") return item;
    const own = english[entity];
    const found = Array.isArray(own) ? (own as Item[]).find((t) => t.id === item.id) : item.id === undefined ? (own as Item) : undefined;
    return found ? { ...item, ...found } : { ...item, lang: "zh-CN" };
  };
  const setting =
    (entity: string): Route =>
    (url) =>
      ok(inLang(entity, SITE[entity] as Item, url));
  const list =
    (entity: string, fields?: string[]): Route =>
    (url) =>
      ok((SITE[entity] as Item[]).map((item) => inLang(entity, pick(item, fields), url)));
  const paged =
    (entity: string, filter: (item: Item, url: URL) => boolean = () => true, fields?: string[]): Route =>
    (url) => {
      const index = Number(url.searchParams.get("pageIndex") ?? 0);
      const size = Number(url.searchParams.get("pageMaxCount") ?? 20);
      const all = (SITE[entity] as Item[]).filter((item) => filter(item, url));
      const sorted =
        entity === "news" || entity === "notices" ? [...all].sort((a, b) => String(b.dateTime).localeCompare(String(a.dateTime))) : all;
      const pageDataList = sorted.slice(index * size, (index + 1) * size).map((item) => inLang(entity, pick(item, fields), url));
      return ok({ pageDataList, totalCount: all.length, totalPageCount: Math.ceil(all.length / size) });
    };
  const routes: Record<string, Route> = {
    "/api/portal/sys/syscfg": setting("syscfg"),
    "/api/portal/sys/sysauthor": setting("sysauthor"),
    "/api/portal/sys/indexhtml": setting("indexhtml"),
    "/api/portal/plan/company": setting("company"),
    "/api/portal/sys/menu/list": list("menus"),
    "/api/portal/message/indexslide/list": list("slides"),
    "/api/portal/product/product/list": list("products"),
    "/api/portal/service/service/list": list("services"),
    "/api/portal/crm/partner/list": list("partners"),
    "/api/portal/plan/member/joblevel/1/list": list("founders"),
    "/api/portal/job/jobtype/list": list("jobTypes"),
    "/api/portal/job/jobaddr/list": list("jobAddrs"),
    "/api/portal/message/news/list": paged("news", undefined, ["id", "title", "brief", "img", "dateTime"]),
    "/api/portal/message/notice/list": paged("notices", undefined, ["id", "title", "brief", "img", "dateTime"]),
    "/api/portal/plan/milepost/list": paged("milestones"),
    "/api/portal/job/job/list": paged(
      "jobs",
      (item, url) => !url.searchParams.get("type") || String(item.type) === url.searchParams.get("type"),
    ),
  };
  const details: [string, string][] = [
    ["products", "/api/portal/product/product/"],
    ["services", "/api/portal/service/service/"],
    ["news", "/api/portal/message/news/"],
    ["notices", "/api/portal/message/notice/"],
    ["jobs", "/api/portal/job/job/"],
  ];
  for (const [entity, prefix] of details) {
    for (const item of SITE[entity] as Item[]) routes[`${prefix}${item.id}`] = (url) => ok(inLang(entity, item, url));
  }
  return routes;
}

/** The demo site's own classify menus, for PORTAL_CLASSIFY in front of a stand-in (the embedded API brings them itself). */
export const DEMO_CLASSIFY = JSON.stringify(SITE.classify);

function pick(item: Item, fields: string[] | undefined): Item {
  return fields ? Object.fromEntries(fields.filter((f) => f in item).map((f) => [f, item[f]])) : item;
}
