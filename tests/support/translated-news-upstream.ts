/**
 * A content API with news in many languages, for the stand-in upstream: the demo site's shell, and `count` news items
 * each translated into the languages `translatedInto` names. Asked with `<langParam>=<tag>` it answers as CONTRACT
 * sections 11 and 16 say, in lists as in details: the item in that language, or in Chinese marked `"lang": "zh-CN"`.
 */
import type { Lang } from "../../shared/langs.ts";
import { demoUpstreamRoutes } from "./demo-upstream.ts";

type Route = (url: URL) => { status?: number; body: unknown };

const ok = (data: unknown) => ({ body: { code: 0, msg: "ok", data } });

export const NEWS_PATH = "/api/portal/message/news";

export function translatedNewsRoutes(
  langParam: string,
  count: number,
  translatedInto: (id: number) => readonly Lang[],
): Record<string, Route | unknown> {
  const newsIn = (id: number, url: URL) => {
    const lang = url.searchParams.get(langParam);
    const item = {
      id,
      title: `新闻 ${id}`,
      brief: `摘要 ${id}`,
      img: "",
      dateTime: `202601${String((id % 28) + 1).padStart(2, "0")}093000`,
    };
    if (lang === null) return item;
    return translatedInto(id).includes(lang as Lang) ? { ...item, title: `news ${id} (${lang})` } : { ...item, lang: "zh-CN" };
  };
  const ids = Array.from({ length: count }, (_, i) => count - i);
  const routes: Record<string, Route | unknown> = {
    ...demoUpstreamRoutes(),
    [`${NEWS_PATH}/list`]: (url: URL) => {
      const index = Number(url.searchParams.get("pageIndex") ?? 0);
      const size = Number(url.searchParams.get("pageMaxCount") ?? 20);
      const pageDataList = ids.slice(index * size, (index + 1) * size).map((id) => newsIn(id, url));
      return ok({ pageDataList, totalCount: ids.length, totalPageCount: Math.ceil(ids.length / size) });
    },
  };
  for (const id of ids) routes[`${NEWS_PATH}/${id}`] = (url: URL) => ok({ ...newsIn(id, url), detail: `<p>${id}</p>` });
  return routes;
}
