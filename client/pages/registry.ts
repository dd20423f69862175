/**
 * Each page's component, loaded on demand (one chunk per file here), bound by page id:
 * a page left out, or a file missing or rendering other pages, fails to compile.
 */
import type { PageId, PageRoute } from "../../shared/routes.ts";
import type { PageModule } from "./page-props.ts";

const PAGE_CODE = {
  home: () => import("./home.tsx"),
  about: () => import("./about.tsx"),
  founders: () => import("./founders.tsx"),
  milestones: () => import("./milestones.tsx"),
  newsList: () => import("./message-list.tsx"),
  noticeList: () => import("./message-list.tsx"),
  newsDetail: () => import("./message-detail.tsx"),
  noticeDetail: () => import("./message-detail.tsx"),
  productDetail: () => import("./offering-detail.tsx"),
  serviceDetail: () => import("./offering-detail.tsx"),
  jobSocietyList: () => import("./job-list.tsx"),
  jobSchoolList: () => import("./job-list.tsx"),
  jobSocietyDetail: () => import("./job-detail.tsx"),
  jobSchoolDetail: () => import("./job-detail.tsx"),
  contact: () => import("./contact.tsx"),
  search: () => import("./search.tsx"),
} satisfies { [Id in PageId]: () => Promise<PageModule<Id>> };

const loaded = new Map<string, PageModule>();

/** The page's module if it is already loaded (synchronously, for rendering). */
export function loadedPage(route: PageRoute): PageModule | undefined {
  return loaded.get(route.id);
}

export async function loadPage(route: PageRoute): Promise<PageModule> {
  const existing = loaded.get(route.id);
  if (existing) return existing;
  const load = (PAGE_CODE as Partial<Record<string, () => Promise<PageModule>>>)[route.id];
  if (!load) throw new Error(`page ${route.id} has no component in client/pages/registry.ts`);
  const module = await load();
  loaded.set(route.id, module);
  return module;
}
