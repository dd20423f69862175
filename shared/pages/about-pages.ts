/** The company pages: its introduction, its founders and its milestones. */
import { keys } from "../data-keys.ts";
import { listPagingOf, listPagingQuery } from "../list-query.ts";
import { type Crumb, definePage } from "../page-route.ts";

export const about = definePage({
  id: "about",
  path: "/about/index.html",
  title: { "zh-CN": "公司简介", en: "About us" },
  keys: { company: keys.company },
  dataKeys: () => [keys.company()],
  translatedBy: () => keys.company(),
});

export const founders = definePage({
  id: "founders",
  path: "/about/member/index.html",
  title: { "zh-CN": "创始团队", en: "Founders" },
  keys: { founders: keys.founders },
  dataKeys: () => [keys.founders()],
  breadcrumb: (): Crumb[] => [about, founders],
  headingWithFullName: true,
});

export const milestones = definePage({
  id: "milestones",
  path: "/about/milepost/index.html",
  title: { "zh-CN": "发展历程", en: "Milestones" },
  // `?page=` says how far the visitor has read; every page shows the same history.
  query: (query) => ({ page: listPagingQuery(query).page }),
  canonicalWithoutQuery: true,
  keys: { page: keys.milestones },
  dataKeys: (_id, query) => [keys.milestones(listPagingOf(query).page - 1)],
  breadcrumb: (): Crumb[] => [about, milestones],
});
