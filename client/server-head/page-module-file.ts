/// <reference types="vite/client" />
/**
 * The source file of a loaded page module, as the build's manifest names it: the page's
 * head has the browser fetch its chunk beside the entry (server/render/module-preload.ts).
 */
import type { PageModule } from "../pages/page-props.ts";

// Loaded on demand, like the registry's imports: a static import here would fold every page into the renderer's entry.
const PAGE_LOADERS = import.meta.glob<PageModule>("../pages/*.tsx");

let files: Promise<Map<PageModule, string>> | undefined;

function filesByModule(): Promise<Map<PageModule, string>> {
  files ??= Promise.all(
    Object.entries(PAGE_LOADERS).map(async ([file, load]) => [await load(), `client/pages/${file.slice("../pages/".length)}`] as const),
  ).then((entries) => new Map(entries));
  return files;
}

export async function pageModuleFile(module: PageModule): Promise<string | undefined> {
  return (await filesByModule()).get(module);
}
