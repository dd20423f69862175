/**
 * Page id → the component module that renders it, loaded on demand so the browser
 * downloads a page's code only when it is shown. Typed by the route table's ids, so a
 * page added there without a component here does not compile. The server and the
 * browser both resolve the current page's module before rendering, so neither
 * suspends on first render.
 */
import type { PageId, PageRoute } from "../../shared/routes.ts";
import type { PageModule } from "./page-props.ts";

export const PAGE_MODULES: Record<PageId, () => Promise<PageModule>> = {
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
};

const loaded = new Map<string, PageModule>();

/** The page's module if it is already loaded (synchronously, for rendering). */
export function loadedPage(id: PageRoute["id"]): PageModule | undefined {
  return loaded.get(id);
}

export async function loadPage(id: PageRoute["id"]): Promise<PageModule> {
  const existing = loaded.get(id);
  if (existing) return existing;
  const load = (PAGE_MODULES as Record<string, () => Promise<PageModule>>)[id];
  if (!load) throw new Error(`page ${id} has no component`);
  const module = await load();
  loaded.set(id, module);
  return module;
}
