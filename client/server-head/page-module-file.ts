/// <reference types="vite/client" />
/**
 * The source file of a loaded page module, as the build's manifest names it: the page's
 * head has the browser fetch its chunk beside the entry (server/render/module-preload.ts).
 */
import type { PageModule } from "../pages/page-props.ts";

const PAGE_FILES = import.meta.glob<PageModule>("../pages/*.tsx", { eager: true });

export function pageModuleFile(module: PageModule): string | undefined {
  const found = Object.entries(PAGE_FILES).find(([, candidate]) => candidate === module);
  return found && `client/pages/${found[0].slice("../pages/".length)}`;
}
