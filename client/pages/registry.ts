/**
 * Page id → the component module that renders it, loaded on demand so the browser
 * downloads a page's code only when it is shown. Typed by the route table's ids, so a
 * page added there without a component here does not compile. The server and the
 * browser both resolve the current page's module before rendering, so neither
 * suspends on first render; the server names it in the page's head (`pageModuleFile`),
 * so the browser fetches it beside the entry instead of after it.
 */
import type { PageId, PageRoute } from "../../shared/routes.ts";
import type { PageModule } from "./page-props.ts";

/** The pages' modules, by file name (without ".tsx"): each is a chunk of its own. */
const MODULES = {
  home: () => import("./home.tsx"),
  about: () => import("./about.tsx"),
  founders: () => import("./founders.tsx"),
  milestones: () => import("./milestones.tsx"),
  "message-list": () => import("./message-list.tsx"),
  "message-detail": () => import("./message-detail.tsx"),
  "offering-detail": () => import("./offering-detail.tsx"),
  "job-list": () => import("./job-list.tsx"),
  "job-detail": () => import("./job-detail.tsx"),
} satisfies Record<string, () => Promise<PageModule>>;

const PAGE_FILES: Record<PageId, keyof typeof MODULES> = {
  home: "home",
  about: "about",
  founders: "founders",
  milestones: "milestones",
  newsList: "message-list",
  noticeList: "message-list",
  newsDetail: "message-detail",
  noticeDetail: "message-detail",
  productDetail: "offering-detail",
  serviceDetail: "offering-detail",
  jobSocietyList: "job-list",
  jobSchoolList: "job-list",
  jobSocietyDetail: "job-detail",
  jobSchoolDetail: "job-detail",
};

const fileOf = (id: PageRoute["id"]) => (PAGE_FILES as Record<string, keyof typeof MODULES | undefined>)[id];

/** The page's module as the build names it (its path from the project folder), if the page has one. */
export function pageModuleFile(id: PageRoute["id"]): string | undefined {
  const file = fileOf(id);
  return file && `client/pages/${file}.tsx`;
}

const loaded = new Map<string, PageModule>();

/** The page's module if it is already loaded (synchronously, for rendering). */
export function loadedPage(id: PageRoute["id"]): PageModule | undefined {
  return loaded.get(id);
}

export async function loadPage(id: PageRoute["id"]): Promise<PageModule> {
  const existing = loaded.get(id);
  if (existing) return existing;
  const file = fileOf(id);
  if (!file) throw new Error(`page ${id} has no component`);
  const module = await MODULES[file]();
  loaded.set(id, module);
  return module;
}
