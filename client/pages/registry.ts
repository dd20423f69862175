/// <reference types="vite/client" />
/**
 * A page's component, found from its route module (`component`, a file in this folder)
 * and loaded on demand, so the browser downloads a page's code only when it is shown:
 * each file here is a chunk of its own. The server and the browser both resolve the
 * current page's module before rendering, so neither suspends on first render; the
 * server names it in the page's head (`pageModuleFile`), so the browser fetches it
 * beside the entry instead of after it.
 */
import type { PageRoute } from "../../shared/routes.ts";
import type { PageModule } from "./page-props.ts";

/** The pages' components, by path from this folder ("./job-list.tsx"), each loaded when first asked for. */
const MODULES = import.meta.glob<PageModule>("./*.tsx");

/** The page's component module as the build names it (its path from the project folder), if it exists. */
export function pageModuleFile(route: PageRoute): string | undefined {
  return `./${route.component}.tsx` in MODULES ? `client/pages/${route.component}.tsx` : undefined;
}

/** Loaded modules by component name: pages that share a component share its module. */
const loaded = new Map<string, PageModule>();

/** The page's module if it is already loaded (synchronously, for rendering). */
export function loadedPage(route: PageRoute): PageModule | undefined {
  return loaded.get(route.component);
}

export async function loadPage(route: PageRoute): Promise<PageModule> {
  const existing = loaded.get(route.component);
  if (existing) return existing;
  const load = MODULES[`./${route.component}.tsx`];
  if (!load) throw new Error(`page ${route.id} names component "${route.component}", which is not a file in client/pages`);
  const module = await load();
  loaded.set(route.component, module);
  return module;
}
